#!/usr/bin/env bash
# A throwaway PostgreSQL server with pgvector for engram's tests and CI.
#
#   eval "$(scripts/ci/postgres.sh start)"   # install what is missing, start a server, export its URL
#   scripts/ci/postgres.sh stop              # stop that server and remove its directory
#   scripts/ci/postgres.sh install           # only install PostgreSQL and pgvector
#   scripts/ci/postgres.sh status            # print the running server's URL (exit 1 when none)
#   scripts/ci/postgres.sh pause|resume      # stop / start that server, keeping its data
#   scripts/ci/postgres.sh crash             # stop it at once, as a crash would (resume recovers)
#
# `start` prints only shell `export` lines on stdout (ENGRAM_TEST_PG_URL, with the password); its
# progress goes to stderr. It is idempotent: PostgreSQL is installed from Debian only when it is
# missing, pgvector is built from Debian's source package only when the server lacks it, and a
# server this script started and that still answers is reused. The server runs as the `postgres`
# user in a temporary directory, listens on 127.0.0.1 only, on a free port, with scram-sha-256
# password authentication and TLS (a self-signed certificate for 127.0.0.1) when openssl exists.
# Each checkout keeps its own server: its state file is named after the checkout's folder, so a CI
# clone and a developer's tree on one machine never reuse or stop each other's server.
# `--state FILE` keeps a second, independent server (the fault tests use one they may restart);
# `--without-pgvector` starts it from a relocated copy of the binaries whose extension directory
# lacks pgvector, as on a server where nobody installed it.
set -euo pipefail

PGVECTOR_VERSION_WANTED="0.8"
CHECKOUT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
STATE="${TMPDIR:-/tmp}/engram-ci-postgres.$(printf '%s' "$CHECKOUT" | cksum | cut -d ' ' -f 1).state"
# Where every checkout kept its state before it had its own; such a server is left alone.
LEGACY_STATE="${TMPDIR:-/tmp}/engram-ci-postgres.state"
DB_NAME="engram_test"
WITH_PGVECTOR=1

log() { printf '[postgres.sh] %s\n' "$*" >&2; }
die() {
  log "error: $*"
  exit 1
}

as_root() {
  [ "$(id -u)" = 0 ] || die "$1 needs root (run it with sudo)"
}

pg_bindir() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  [ -n "$dir" ] && [ -x "$dir/pg_ctl" ] && printf '%s\n' "$dir"
}

apt_updated=0
apt_update_once() {
  if [ "$apt_updated" = 0 ]; then
    log "apt-get update"
    apt-get update -qq >&2
    apt_updated=1
  fi
}

apt_install() {
  as_root "installing $*"
  apt_update_once
  log "apt-get install $*"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >&2
}

install_postgres() {
  if [ -n "$(pg_bindir || true)" ]; then return; fi
  apt_install postgresql
  [ -n "$(pg_bindir || true)" ] || die "PostgreSQL installed, but no /usr/lib/postgresql/*/bin/pg_ctl"
}

pgvector_installed() {
  local share
  share=$("$(pg_bindir)/pg_config" --sharedir)
  [ -f "$share/extension/vector.control" ]
}

# The machine's own Debian archive URI and keyring, read from its apt sources.
debian_archive() {
  local file uri key
  for file in /etc/apt/sources.list.d/*.sources; do
    [ -f "$file" ] || continue
    uri=$(awk '/^URIs:/ {print $2; exit}' "$file")
    key=$(awk '/^Signed-By:/ {print $2; exit}' "$file")
    case "$uri" in */debian) printf '%s %s\n' "$uri" "${key:-/usr/share/keyrings/debian-archive-keyring.gpg}" && return ;; esac
  done
  for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$file" ] || continue
    uri=$(awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^(https?|file):/) { print $i; exit } }' "$file")
    [ -n "$uri" ] && printf '%s %s\n' "$uri" /usr/share/keyrings/debian-archive-keyring.gpg && return
  done
  printf '%s %s\n' http://deb.debian.org/debian /usr/share/keyrings/debian-archive-keyring.gpg
}

# Builds pgvector from Debian's source package (trixie has 0.8.x; bookworm has none) with a private
# apt configuration, so /etc/apt stays untouched.
install_pgvector() {
  if pgvector_installed; then return; fi
  as_root "building pgvector"
  local bindir major work uri key
  bindir=$(pg_bindir)
  major=$("$bindir/pg_config" --version | sed -E 's/[^0-9]*([0-9]+).*/\1/')
  if [ ! -f "/usr/include/postgresql/$major/server/postgres.h" ] || ! command -v make >/dev/null ||
    ! command -v gcc >/dev/null || ! command -v dpkg-source >/dev/null; then
    apt_install "postgresql-server-dev-$major" build-essential dpkg-dev
  fi
  work=$(mktemp -d "${TMPDIR:-/tmp}/engram-pgvector.XXXXXX")
  read -r uri key < <(debian_archive)
  mkdir -p "$work/sources.list.d" "$work/lists/partial" "$work/cache/archives/partial"
  cat >"$work/sources.list.d/pgvector-src.sources" <<EOF
Types: deb-src
URIs: $uri
Suites: trixie
Components: main
Signed-By: $key
EOF
  : >"$work/sources.list"
  local apt_opts=(-o "Dir::Etc::sourcelist=$work/sources.list" -o "Dir::Etc::sourceparts=$work/sources.list.d"
    -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache" -o "APT::Get::List-Cleanup=0" -o "APT::Sandbox::User=root")
  log "fetching Debian's pgvector source package from $uri (trixie)"
  apt-get "${apt_opts[@]}" update -qq >&2
  (cd "$work" && apt-get "${apt_opts[@]}" source --download-only pgvector >&2)
  local dsc
  dsc=$(ls "$work"/pgvector_*.dsc | head -n 1)
  [ -n "$dsc" ] || die "no pgvector source package was downloaded"
  (cd "$work" && dpkg-source --no-check -x "$(basename "$dsc")" src >&2)
  log "building pgvector $(basename "$dsc" .dsc | sed 's/^pgvector_//') for PostgreSQL $major"
  make -C "$work/src" -s OPTFLAGS="" PG_CONFIG="$bindir/pg_config" >&2
  make -C "$work/src" -s install PG_CONFIG="$bindir/pg_config" >&2
  rm -rf "$work"
  pgvector_installed || die "pgvector was built but vector.control is not in the server's share directory"
}

install_all() {
  install_postgres
  install_pgvector
  command -v openssl >/dev/null || apt_install openssl
}

# A copy of the server's binaries whose share directory lacks pgvector. PostgreSQL finds its
# share and lib directories relative to its binaries, so symbolic links do the rest.
relocated_without_pgvector() {
  local root=$1 bindir major share lib entry
  bindir=$(pg_bindir)
  major=$(basename "$(dirname "$bindir")")
  share=$("$bindir/pg_config" --sharedir)
  lib=$("$bindir/pg_config" --pkglibdir)
  mkdir -p "$root/lib/postgresql/$major" "$root/share/postgresql/$major/extension"
  cp -r "$bindir" "$root/lib/postgresql/$major/bin"
  ln -s "$lib" "$root/lib/postgresql/$major/lib"
  for entry in "$share"/*; do
    [ "$(basename "$entry")" = extension ] || ln -s "$entry" "$root/share/postgresql/$major/"
  done
  for entry in "$share"/extension/*; do
    case "$(basename "$entry")" in vector--* | vector.control) ;; *) ln -s "$entry" "$root/share/postgresql/$major/extension/" ;; esac
  done
  printf '%s\n' "$root/lib/postgresql/$major/bin"
}

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

read_state() {
  [ -f "$STATE" ] || return 1
  # shellcheck disable=SC1090
  . "$STATE"
  PG_BIN=${PG_BIN:-$(pg_bindir)}
  [ -n "${PG_DIR:-}" ] && [ -n "${PG_URL:-}" ]
}

server_running() {
  [ -n "${PG_DIR:-}" ] && [ -f "$PG_DIR/data/postmaster.pid" ] &&
    runuser -u postgres -- "${PG_BIN:-$(pg_bindir)}/pg_ctl" -D "$PG_DIR/data" status >/dev/null 2>&1
}

print_exports() {
  printf 'export ENGRAM_TEST_PG_URL=%q\n' "$PG_URL"
}

make_certificate() {
  local data=$1
  command -v openssl >/dev/null || return 1
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "/CN=127.0.0.1" \
    -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
    -keyout "$data/server.key" -out "$data/server.crt" >/dev/null 2>&1 || return 1
  chown postgres: "$data/server.key" "$data/server.crt"
  chmod 600 "$data/server.key"
}

# Says where a server recorded in the old shared state file is, since this checkout will not stop it.
legacy_notice() {
  [ "$STATE" != "$LEGACY_STATE" ] && [ -f "$LEGACY_STATE" ] || return 0
  log "a server started before states were kept per checkout is recorded in $LEGACY_STATE;" \
    "this checkout leaves it alone (stop it with: bash scripts/ci/postgres.sh stop --state $LEGACY_STATE)"
}

start() {
  if read_state && server_running; then
    log "reusing the server in $PG_DIR"
    print_exports
    return
  fi
  as_root "starting the test server"
  legacy_notice
  install_all
  local bindir dir port password ssl=off
  dir=$(mktemp -d "${TMPDIR:-/tmp}/engram-pg.XXXXXX")
  chmod 755 "$dir"
  bindir=$(pg_bindir)
  [ "$WITH_PGVECTOR" = 1 ] || bindir=$(relocated_without_pgvector "$dir/install")
  chown postgres: "$dir"
  password=$(node -e "console.log(require('crypto').randomBytes(18).toString('base64url'))")
  printf '%s\n' "$password" >"$dir/pwfile"
  chown postgres: "$dir/pwfile"
  chmod 600 "$dir/pwfile"
  log "initdb in $dir/data"
  runuser -u postgres -- "$bindir/initdb" -D "$dir/data" -U postgres --pwfile="$dir/pwfile" \
    --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; die "initdb failed"; }
  rm -f "$dir/pwfile"
  if make_certificate "$dir/data"; then ssl=on; fi
  port=$(free_port)
  cat >>"$dir/data/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
max_connections = 200
shared_buffers = 128MB
fsync = off
synchronous_commit = off
full_page_writes = off
ssl = $ssl
ssl_cert_file = 'server.crt'
ssl_key_file = 'server.key'
EOF
  log "starting PostgreSQL on 127.0.0.1:$port (TLS $ssl)"
  runuser -u postgres -- "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >&2 ||
    { cat "$dir/server.log" >&2; die "the server did not start"; }
  runuser -u postgres -- "$bindir/psql" -h "$dir" -p "$port" -U postgres -q -v ON_ERROR_STOP=1 \
    -c "CREATE DATABASE $DB_NAME" -d postgres >&2
  if [ "$WITH_PGVECTOR" = 1 ]; then
    runuser -u postgres -- "$bindir/psql" -h "$dir" -p "$port" -U postgres -q -v ON_ERROR_STOP=1 \
      -c "CREATE EXTENSION IF NOT EXISTS vector" -d "$DB_NAME" >&2
  fi
  PG_DIR=$dir
  PG_BIN=$bindir
  PG_URL="postgres://postgres:$password@127.0.0.1:$port/$DB_NAME"
  {
    printf 'PG_DIR=%q\n' "$PG_DIR"
    printf 'PG_URL=%q\n' "$PG_URL"
    printf 'PG_PORT=%q\n' "$port"
    printf 'PG_BIN=%q\n' "$PG_BIN"
  } >"$STATE"
  chmod 600 "$STATE"
  print_exports
}

stop() {
  if ! read_state; then
    log "no server recorded in $STATE"
    return 0
  fi
  if server_running; then
    log "stopping the server in $PG_DIR"
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >&2 || true
  fi
  case "$PG_DIR" in "${TMPDIR:-/tmp}"/engram-pg.*) rm -rf "$PG_DIR" ;; esac
  rm -f "$STATE"
}

# Runs pg_ctl on the recorded server; `@LOG` in the arguments stands for its log file.
pg_ctl_recorded() {
  read_state || die "no server recorded in $STATE"
  local args=() arg
  for arg in "$@"; do args+=("${arg//@LOG/$PG_DIR/server.log}"); done
  runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -w -t 60 "${args[@]}" >&2
}

restart() { pg_ctl_recorded -m fast -l @LOG restart; }
pause() { pg_ctl_recorded -m fast stop; }
crash() { pg_ctl_recorded -m immediate stop; }
resume() { pg_ctl_recorded -l @LOG start; }

status() {
  if read_state && server_running; then
    print_exports
  else
    log "no running server recorded in $STATE"
    return 1
  fi
}

command=${1:-start}
shift || true
while [ $# -gt 0 ]; do
  case "$1" in
    --state)
      STATE=$2
      shift 2
      ;;
    --without-pgvector)
      WITH_PGVECTOR=0
      shift
      ;;
    *) die "unknown option $1" ;;
  esac
done

case "$command" in
  start) start ;;
  stop) stop ;;
  restart) restart ;;
  pause) pause ;;
  crash) crash ;;
  resume) resume ;;
  status) status ;;
  install) install_all ;;
  *) die "unknown command $command (start, stop, restart, pause, resume, crash, status, install)" ;;
esac
