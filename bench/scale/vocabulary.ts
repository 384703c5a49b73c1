/**
 * The controlled vocabulary of the scale benchmark's synthetic memories: people, projects, tools,
 * places, foods, times. Large enough that names and topics repeat the way they do in a real
 * agent's memory (a few common terms, a long tail of rare ones), small enough to stay readable.
 */

const words = (text: string): readonly string[] => text.trim().split(/\s+/u);

/** Given names (combined with family names into a few thousand distinct people). */
export const FIRST_NAMES = words(`
alice bob carol david emma frank grace henry irene jack karen liam maria noah olivia peter quinn
rachel samuel tara victor wendy xavier yara zoe adam bella carlos diana elena felix gloria hugo
isabel jonas kira lucas mila nadia oscar paula rafael sofia tomas ursula vera walter yusuf zara
amir beatrix cedric daria edgar fiona gustav hannah ivan julia kamal leila marco nina omar priya
ravi sara theo uma vincent wanda yosef andrea bruno chloe dmitri esther farah gemma hassan ines
jorge kofi lena mateo nora otto pablo rosa stefan tanya umar valentina william ximena yuki zeno
ahmed bianca colin dora emil freya gabriel helga igor jasmine kenji lara milan naomi orla pedro
rita simon tessa uri vivian wes yasmin anton brigitte conrad delia ezra flora gideon hilda isaac
jade kurt luna moritz nils ophelia piotr ruth sven thea ulrich vesna willem zelda arjun bea
`);

/** Family names. */
export const LAST_NAMES = words(`
smith jones garcia miller davis lopez wilson anderson taylor thomas moore martin jackson white
harris clark lewis robinson walker young allen king wright scott hill green adams baker nelson
carter mitchell perez roberts turner phillips campbell parker evans edwards collins stewart morris
rogers reed cook morgan bell murphy bailey rivera cooper richardson cox howard ward torres peterson
gray ramirez james watson brooks kelly sanders price bennett wood barnes ross henderson coleman
jenkins perry powell long patterson hughes flores washington butler simmons foster gonzales bryant
alexander russell griffin diaz hayes myers ford hamilton graham sullivan wallace woods cole west
jordan owens reynolds fisher ellis harrison gibson mcdonald cruz marshall ortiz gomez murray freeman
wells webb simpson stevens tucker porter hunter hicks crawford henry boyd mason morales kennedy
warren dixon ramos reyes burns gordon shaw holmes rice robertson hunt black daniels palmer mills
nichols grant knight ferguson rose stone hawkins dunn perkins hudson spencer gardner stephens payne
pierce berry matthews arnold wagner willis ray watkins olson carroll duncan snyder hart cunningham
bradley lane andrews ruiz harper fox riley armstrong carpenter weaver greene lawrence elliott chavez
sims austin peters kelley franklin lawson fields schmidt weber fischer becker schulz hoffmann koch
richter klein wolf neumann schwarz zimmermann braun hartmann lange werner krause lehmann kaiser
rossi russo ferrari esposito bianchi romano colombo ricci marino greco bruno gallo conti costa
nakamura tanaka suzuki watanabe ito yamamoto kobayashi kato yoshida sasaki novak horvat kowalski
nowak wisniewski kaminski dubois moreau laurent lefebvre bernard petit durand leroy fontaine
`);

/** Project code names. */
export const PROJECTS = words(`
falcon orion atlas phoenix aurora nebula titan helios apollo zephyr comet polaris vega nova
horizon summit beacon harbor quartz cobalt onyx jasper garnet amber sapphire topaz emerald ruby
granite basalt cedar maple willow aspen birch sequoia juniper spruce lotus orchid tulip iris
dahlia hermes athena artemis poseidon hydra pegasus griffin sphinx kraken raven condor osprey
heron pelican albatross kestrel merlin sparrow hummingbird mustang bison lynx cougar jaguar puma
panther otter badger beaver marmot meerkat lemur gecko iguana cobra viper python mamba tundra
savanna prairie canyon mesa glacier fjord lagoon delta estuary reef atoll archipelago monsoon
cyclone typhoon tornado blizzard avalanche ember cinder spark flare blaze lantern compass sextant
anchor rudder keel mast sail voyager pioneer explorer pathfinder trailblazer frontier outpost
citadel bastion rampart fortress sentinel guardian warden ranger scout nomad pilgrim wanderer
`);

/** Software tools, services and libraries (as people name them in notes). */
export const TOOLS = words(`
postgres mysql sqlite redis kafka rabbitmq elasticsearch kubernetes docker terraform ansible jenkins
grafana prometheus datadog sentry nginx haproxy envoy istio consul vault nomad airflow spark hadoop
snowflake bigquery redshift dbt tableau looker jupyter pandas numpy pytorch tensorflow react vue
angular svelte webpack vite babel typescript eslint prettier jest vitest cypress playwright selenium
github gitlab bitbucket jira confluence slack zoom figma notion trello asana linear vercel netlify
heroku cloudflare fastly akamai stripe twilio sendgrid auth0 okta keycloak graphql grpc protobuf
openapi swagger celery sidekiq resque memcached cassandra mongodb dynamodb couchdb neo4j clickhouse
timescaledb influxdb minio ceph zfs btrfs systemd cron bash zsh fish tmux vim emacs vscode intellij
`);

/** Programming languages. */
export const LANGUAGES = words(
  `python java go rust ruby javascript typescript kotlin swift scala elixir haskell php perl`,
);

/** Parts of a system a project has. */
export const COMPONENTS = words(`
billing checkout search indexer scheduler gateway frontend backend dashboard importer exporter
notifications payments invoicing reporting analytics ingestion pipeline crawler recommender ranking
authentication authorization onboarding inventory shipping catalog pricing ledger audit archive
`);

/** Cities. */
export const CITIES = words(`
london paris berlin madrid rome lisbon dublin amsterdam brussels vienna prague warsaw budapest
athens istanbul cairo nairobi lagos johannesburg casablanca dubai mumbai delhi bangalore chennai
singapore bangkok jakarta manila seoul tokyo osaka beijing shanghai sydney melbourne auckland
toronto montreal vancouver chicago boston seattle denver austin houston miami atlanta portland
oslo stockholm copenhagen helsinki reykjavik zurich geneva munich hamburg milan naples barcelona
valencia seville porto edinburgh glasgow manchester liverpool lyon marseille krakow riga tallinn
`);

/** Foods and dishes. */
export const FOODS = words(`
sushi ramen pizza pasta tacos burritos curry dumplings noodles salad soup steak salmon tuna shrimp
lobster oysters tofu tempeh falafel hummus kebab paella risotto lasagna croissants bagels pancakes
waffles oatmeal granola yogurt cheesecake brownies cookies chocolate vanilla strawberries mangoes
peanuts almonds walnuts cashews sesame gluten lactose eggs shellfish mushrooms olives avocado
`);

/** Drinks. */
export const DRINKS = words(
  `coffee espresso tea matcha cocoa juice lemonade kombucha water soda beer wine`,
);

/** Cuisines. */
export const CUISINES = words(`
italian french japanese korean chinese thai vietnamese indian mexican spanish greek turkish
lebanese ethiopian moroccan peruvian brazilian german polish georgian
`);

/** Hobbies, as verb phrases. */
export const HOBBIES = [
  'go hiking',
  'play chess',
  'bake bread',
  'go climbing',
  'play the guitar',
  'run marathons',
  'paint watercolors',
  'go sailing',
  'play tennis',
  'read science fiction',
  'brew beer',
  'build furniture',
  'go birdwatching',
  'play football',
  'swim in the lake',
  'ride a bicycle',
  'practice yoga',
  'collect vinyl records',
  'grow tomatoes',
  'fly drones',
] as const;

/** Weekdays. */
export const WEEKDAYS = words(`monday tuesday wednesday thursday friday saturday sunday`);

/** Months. */
export const MONTHS = words(
  `january february march april may june july august september october november december`,
);

/** Meeting rooms and places in an office. */
export const ROOMS = words(`blue green orange violet library kitchen atrium lounge garden rooftop`);

/** Cloud regions. */
export const REGIONS = words(
  `frankfurt ireland virginia oregon ohio tokyo singapore mumbai sydney`,
);

/** Environments. */
export const ENVIRONMENTS = words(`production staging development sandbox preview`);

/** Teams. */
export const TEAMS = words(
  `platform infrastructure data mobile web security growth payments search`,
);

/** Editors and their settings. */
export const EDITORS = words(`vim emacs vscode intellij sublime helix zed`);

/** Colour themes. */
export const THEMES = words(`dark light solarized monokai dracula nord gruvbox`);

/** Conferences. */
export const CONFERENCES = words(
  `kubecon pycon jsconf strangeloop gophercon rustconf reinvent qcon`,
);

/** Topics people discuss. */
export const TOPICS = [
  'observability',
  'database migrations',
  'caching strategy',
  'incident response',
  'hiring plans',
  'the quarterly roadmap',
  'accessibility',
  'cost reduction',
  'latency budgets',
  'data retention',
  'feature flags',
  'load testing',
  'security reviews',
  'onboarding docs',
  'release automation',
] as const;

/** Conditions under which things break. */
export const CONDITIONS = [
  'the queue backs up',
  'a request carries more than ten thousand rows',
  'the cache is cold after a deploy',
  'two writers update the same record',
  'the upstream API is slow',
  'the disk fills up',
  'a user uploads a very large file',
  'daylight saving time changes',
] as const;

/** Workarounds. */
export const WORKAROUNDS = [
  'restart the worker',
  'raise the timeout to thirty seconds',
  'split the batch in smaller pages',
  'warm the cache by hand',
  'retry with exponential backoff',
  'pin the previous version',
  'clear the temporary directory',
] as const;

/** Reasons a choice was made. */
export const REASONS = [
  'the license was too restrictive',
  'it was too expensive to operate',
  'the team already knew it well',
  'it could not handle our write load',
  'the documentation was poor',
  'it needed too much memory',
  'support for backups was missing',
] as const;

/** Gifts people like. */
export const GIFTS = words(`books plants headphones chocolates notebooks candles puzzles tickets`);

/** Reports. */
export const REPORTS = words(`revenue usage latency incident churn uptime security hiring`);
