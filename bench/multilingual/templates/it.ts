/** Italian templates of the multilingual recall set (text written for engram's benchmark). */
import {
  type DayOfYear,
  DAYS,
  fact,
  g,
  type LanguageTemplates,
  peopleOf,
  type Person,
} from './types.js';

const people = peopleOf([
  ['Giulia', true],
  ['Marco', false],
  ['Francesca', true],
  ['Luca', false],
  ['Chiara', true],
  ['Alessandro', false],
  ['Sara', true],
  ['Matteo', false],
  ['Valentina', true],
  ['Andrea', false],
  ['Federica', true],
  ['Lorenzo', false],
  ['Elisa', true],
  ['Davide', false],
  ['Martina', true],
  ['Simone', false],
  ['Silvia', true],
  ['Stefano', false],
  ['Alessia', true],
  ['Giovanni', false],
  ['Elena', true],
  ['Riccardo', false],
  ['Paola', true],
  ['Francesco', false],
  ['Ilaria', true],
  ['Gabriele', false],
  ['Roberta', true],
  ['Antonio', false],
  ['Beatrice', true],
  ['Emanuele', false],
  ['Anna', true],
  ['Giorgio', false],
  ['Laura', true],
  ['Paolo', false],
  ['Irene', true],
  ['Tommaso', false],
  ['Caterina', true],
  ['Nicola', false],
  ['Arianna', true],
  ['Enrico', false],
]);

/** "Marco e Giulia", but "Marco ed Elena" before another e. */
function and(a: Person, b: Person): string {
  return `${a.name} ${/^[eE]/u.test(b.name) ? 'ed' : 'e'} ${b.name}`;
}

/** "a Marco", but "ad Anna" before another a. */
function toName(p: Person): string {
  return /^[aA]/u.test(p.name) ? `ad ${p.name}` : `a ${p.name}`;
}

/** The plural ending of a participle for a pair of people ("andate" only if both are women). */
function plural(a: Person, b: Person): string {
  return a.female && b.female ? 'e' : 'i';
}

/** "a" joined to the article of a noun phrase: "al tennis", "allo yoga", "agli scacchi". */
function to(x: string): string {
  const joined: [string, string][] = [
    ['il ', 'al '],
    ['lo ', 'allo '],
    ['la ', 'alla '],
    ["l'", "all'"],
    ['i ', 'ai '],
    ['gli ', 'agli '],
    ['le ', 'alle '],
  ];
  for (const [article, prep] of joined)
    if (x.startsWith(article)) return prep + x.slice(article.length);
  return `a ${x}`;
}

function capital(s: string): string {
  return `${s.charAt(0).toUpperCase()}${s.slice(1)}`;
}

const MONTHS = [
  'gennaio',
  'febbraio',
  'marzo',
  'aprile',
  'maggio',
  'giugno',
  'luglio',
  'agosto',
  'settembre',
  'ottobre',
  'novembre',
  'dicembre',
];

/** A date with its article: "il 15 marzo", "l'8 marzo", "il primo maggio". */
function date(d: DayOfYear): string {
  const month = MONTHS[d.month - 1]!;
  if (d.day === 1) return `il primo ${month}`;
  return d.day === 8 || d.day === 11 ? `l'${d.day} ${month}` : `il ${d.day} ${month}`;
}

const cities = [
  'Milano',
  'Roma',
  'Torino',
  'Bologna',
  'Firenze',
  'Napoli',
  'Genova',
  'Verona',
  'Padova',
  'Bari',
  'Palermo',
  'Trieste',
  'Parma',
  'Cagliari',
  'Lugano',
];

/** A dish with its article; `plural` for the verb agreeing with it ("piacciono le lasagne"). */
const foods = [
  { name: 'la carbonara', plural: false },
  { name: 'le lasagne', plural: true },
  { name: 'il risotto alla milanese', plural: false },
  { name: 'la pizza margherita', plural: false },
  { name: 'gli arancini', plural: true },
  { name: 'la parmigiana di melanzane', plural: false },
  { name: 'gli gnocchi al pesto', plural: true },
  { name: "l'ossobuco", plural: false },
  { name: 'i tortellini in brodo', plural: true },
  { name: 'la cotoletta', plural: false },
  { name: 'le orecchiette con le cime di rapa', plural: true },
  { name: 'la pasta e fagioli', plural: false },
  { name: 'il vitello tonnato', plural: false },
  { name: 'la ribollita', plural: false },
  { name: 'la trippa alla romana', plural: false },
];

const jobs = [
  { place: 'ospedale', job: ['infermiere', 'infermiera'], at: 'in un ospedale' },
  { place: 'scuola', job: ['maestro', 'maestra'], at: 'in una scuola elementare' },
  {
    place: 'banca',
    job: ['consulente finanziario', 'consulente finanziaria'],
    at: 'in una banca',
  },
  {
    place: 'software',
    job: ['programmatore', 'programmatrice'],
    at: "in un'azienda di software",
  },
  { place: 'casa editrice', job: ['redattore', 'redattrice'], at: 'in una casa editrice' },
  { place: 'studio legale', job: ['avvocato', 'avvocata'], at: 'in uno studio legale' },
  { place: 'ristorante', job: ['cuoco', 'cuoca'], at: 'in un ristorante' },
  { place: 'farmacia', job: ['farmacista', 'farmacista'], at: 'in una farmacia del centro' },
  {
    place: 'architettura',
    job: ['architetto', 'architetta'],
    at: 'in uno studio di architettura',
  },
  { place: 'giornale', job: ['giornalista', 'giornalista'], at: 'in un quotidiano locale' },
  { place: 'asilo nido', job: ['educatore', 'educatrice'], at: 'in un asilo nido' },
  {
    place: 'clinica veterinaria',
    job: ['veterinario', 'veterinaria'],
    at: 'in una clinica veterinaria',
  },
  { place: 'comune', job: ['impiegato', 'impiegata'], at: "all'anagrafe del Comune" },
  { place: 'panificio', job: ['panettiere', 'panettiera'], at: 'in un panificio' },
];

const pets = [
  { animal: 'gatto', a: 'un gatto', the: 'il gatto', fem: false, name: 'Romeo' },
  { animal: 'cane', a: 'un cane', the: 'il cane', fem: false, name: 'Birba' },
  { animal: 'coniglio', a: 'un coniglio', the: 'il coniglio', fem: false, name: 'Batuffolo' },
  {
    animal: 'pappagallino',
    a: 'un pappagallino',
    the: 'il pappagallino',
    fem: false,
    name: 'Cip',
  },
  { animal: 'criceto', a: 'un criceto', the: 'il criceto', fem: false, name: 'Nocciolina' },
  { animal: 'tartaruga', a: 'una tartaruga', the: 'la tartaruga', fem: true, name: 'Carlotta' },
  { animal: 'bassotto', a: 'un bassotto', the: 'il bassotto', fem: false, name: 'Wurstel' },
  { animal: 'gatta', a: 'una gatta', the: 'la gatta', fem: true, name: 'Luna' },
  {
    animal: "porcellino d'India",
    a: "un porcellino d'India",
    the: "il porcellino d'India",
    fem: false,
    name: 'Cannella',
  },
];

/** A pastime with its article and without ("appassionato di scacchi"); `plural` for the verb. */
const hobbies = [
  { the: 'il tennis', bare: 'tennis', plural: false },
  { the: "l'escursionismo", bare: 'escursionismo', plural: false },
  { the: 'la pesca', bare: 'pesca', plural: false },
  { the: 'la chitarra', bare: 'chitarra', plural: false },
  { the: "l'acquerello", bare: 'acquerello', plural: false },
  { the: 'gli scacchi', bare: 'scacchi', plural: true },
  { the: 'il nuoto', bare: 'nuoto', plural: false },
  { the: 'il padel', bare: 'padel', plural: false },
  { the: 'la fotografia', bare: 'fotografia', plural: false },
  { the: 'la pasticceria', bare: 'pasticceria', plural: false },
  { the: 'lo yoga', bare: 'yoga', plural: false },
  { the: 'il ciclismo', bare: 'ciclismo', plural: false },
  { the: 'il giardinaggio', bare: 'giardinaggio', plural: false },
  { the: "l'arrampicata", bare: 'arrampicata', plural: false },
  { the: 'la ceramica', bare: 'ceramica', plural: false },
];

const allergies = [
  'le arachidi',
  'i crostacei',
  'il pelo di gatto',
  'il polline',
  'le nocciole',
  'le uova',
  'il latte vaccino',
  'la penicillina',
];

/** A country with its "from" form: "dal Portogallo", "dall'Islanda". */
const trips = [
  { name: 'Portogallo', from: 'dal Portogallo' },
  { name: 'Norvegia', from: 'dalla Norvegia' },
  { name: 'Giappone', from: 'dal Giappone' },
  { name: 'Islanda', from: "dall'Islanda" },
  { name: 'Croazia', from: 'dalla Croazia' },
  { name: 'Scozia', from: 'dalla Scozia' },
  { name: 'Grecia', from: 'dalla Grecia' },
  { name: 'Marocco', from: 'dal Marocco' },
  { name: 'Canada', from: 'dal Canada' },
  { name: 'Spagna', from: 'dalla Spagna' },
  { name: 'Irlanda', from: "dall'Irlanda" },
  { name: 'Vietnam', from: 'dal Vietnam' },
];

/** A relative: "la figlia di Marco", "sua figlia", and how a user would ask ("la mamma"). */
const relatives = [
  {
    the: 'la figlia',
    his: 'sua figlia',
    ask: 'la figlia',
    news: 'comincia la prima elementare a settembre e non sta più nella pelle',
  },
  {
    the: 'il figlio',
    his: 'suo figlio',
    ask: 'il figlio',
    news: 'studia ingegneria gestionale al Politecnico e vive in uno studentato',
  },
  {
    the: 'la sorella',
    his: 'sua sorella',
    ask: 'la sorella',
    news: 'si sposa il mese prossimo e la festa sarà in un agriturismo',
  },
  {
    the: 'il fratello',
    his: 'suo fratello',
    ask: 'il fratello',
    news: 'ha aperto un piccolo bar in piazza nel suo paese',
  },
  {
    the: 'la madre',
    his: 'sua madre',
    ask: 'la mamma',
    news: 'si è operata al ginocchio il mese scorso e adesso fa fisioterapia',
  },
  {
    the: 'il padre',
    his: 'suo padre',
    ask: 'il papà',
    news: 'è appena andato in pensione e ogni mattina esce a camminare',
  },
  {
    the: 'la nonna',
    his: 'sua nonna',
    ask: 'la nonna',
    news: "ha compiuto novant'anni e ha fatto una grande festa con tutta la famiglia",
  },
  {
    the: 'il cugino',
    his: 'suo cugino',
    ask: 'il cugino',
    news: 'si è trasferito in Germania per lavoro e sta imparando il tedesco',
  },
];

const drinks = [
  { name: 'tè verde', a: 'un tè verde', the: 'il tè verde' },
  { name: 'espresso', a: 'un espresso doppio', the: "l'espresso" },
  { name: 'camomilla', a: 'una camomilla', the: 'la camomilla' },
  { name: 'cappuccino', a: 'un cappuccino', the: 'il cappuccino' },
  { name: "caffè d'orzo", a: "un caffè d'orzo", the: "il caffè d'orzo" },
  { name: "spremuta d'arancia", a: "una spremuta d'arancia", the: "la spremuta d'arancia" },
  { name: 'caffellatte', a: 'un caffellatte', the: 'il caffellatte' },
  {
    name: 'tisana allo zenzero',
    a: 'una tisana allo zenzero',
    the: 'la tisana allo zenzero',
  },
];

/** The Italian templates. */
export const it: LanguageTemplates = {
  lang: 'it',
  label: 'Italian',
  people,
  facts: [
    fact({
      kind: 'city',
      values: cities,
      memories: [
        (p, c) =>
          `${p.name} si è ${g(p, 'trasferito', 'trasferita')} a ${c} l'anno scorso e ora vive in un vecchio appartamento in centro.`,
        (p, c) => `${p.name} abita a ${c} e va al lavoro in bici tutti i giorni.`,
        (p, c) => `${p.name} ha sempre vissuto a ${c} e va a trovare i genitori solo a Natale.`,
      ],
      ask: (p) => `Dove abita adesso ${p.name}?`,
      askWho: (c) => `Chi vive a ${c}?`,
    }),
    fact({
      kind: 'food',
      values: foods,
      memories: [
        (p, f) =>
          `Quando mangiamo fuori, ${p.name} ordina sempre ${f.name}: dice che non c'è niente di meglio.`,
        (p, f) => `Secondo ${p.name}, niente al mondo batte ${f.name} di sua nonna.`,
        (p, f) => `Il piatto preferito di ${p.name} ${f.plural ? 'sono' : 'è'} ${f.name}.`,
      ],
      ask: (p) => `Qual è il cibo preferito di ${p.name}?`,
      askWho: (f) => `A chi ${f.plural ? 'piacciono' : 'piace'} ${f.name}?`,
      key: (f) => f.name,
    }),
    fact({
      kind: 'job',
      values: jobs,
      memories: [
        (p, j) => `${p.name} lavora come ${j.job[p.female ? 1 : 0]} ${j.at} da tre anni.`,
        (p, j) =>
          `${p.name} è ${j.job[p.female ? 1 : 0]} ${j.at}; ultimamente fa un sacco di straordinari.`,
      ],
      ask: (p) => `Che lavoro fa ${p.name}?`,
      askWho: (j) => `Chi dei miei conoscenti lavora ${j.at}?`,
      key: (j) => j.place,
    }),
    fact({
      kind: 'pet',
      values: pets,
      memories: [
        (p, v) => `${p.name} ha ${v.a} che si chiama ${v.name}.`,
        (p, v) =>
          `${capital(v.the)} di ${p.name}, ${v.name}, è ${v.fem ? 'stata' : 'stato'} male la settimana scorsa e l'hanno ${v.fem ? 'dovuta' : 'dovuto'} portare dal veterinario.`,
        (p, v) =>
          `Quando ${p.name} è via per lavoro, ${v.the} ${v.name} ${v.fem ? 'la' : 'lo'} tiene sua sorella.`,
      ],
      ask: (p) => `Come si chiama l'animale di ${p.name}?`,
      askWho: (v) => `Chi ha ${v.a}?`,
      key: (v) => v.animal,
    }),
    fact({
      kind: 'hobby',
      values: hobbies,
      memories: [
        (p, h) =>
          `${p.name} si è ${g(p, 'appassionato', 'appassionata')} ${to(h.the)} due anni fa e da allora ci dedica tutti i fine settimana.`,
        (p, h) =>
          `La grande passione di ${p.name} ${h.plural ? 'sono' : 'è'} ${h.the}: il sabato non ci rinuncia mai.`,
      ],
      ask: (p) => `Che hobby ha ${p.name}?`,
      askWho: (h) => `Chi è appassionato di ${h.bare}?`,
      key: (h) => h.bare,
    }),
    fact({
      kind: 'birthday',
      values: DAYS,
      memories: [
        (p, d) =>
          `${p.name} compie gli anni ${date(d)} e ${g(p, 'gli', 'le')} fa sempre piacere ricevere libri in regalo.`,
        (p, d) => `${capital(date(d))} è il compleanno di ${p.name}: ordinare la torta per tempo!`,
      ],
      ask: (p) => `Quand'è il compleanno di ${p.name}?`,
    }),
    fact({
      kind: 'allergy',
      values: allergies,
      memories: [
        (p, a) =>
          `${p.name} è ${g(p, 'allergico', 'allergica')} ${to(a)}; ricordiamocelo quando ${g(p, 'lo', 'la')} invitiamo a cena.`,
        (p, a) => `Il medico ha confermato che ${p.name} ha una forte allergia ${to(a)}.`,
      ],
      ask: (p) => `A cosa è ${g(p, 'allergico', 'allergica')} ${p.name}?`,
      askWho: (a) => `Chi è allergico ${to(a)}?`,
    }),
    fact({
      kind: 'trip',
      values: trips,
      memories: [
        (p, t) => `Quest'estate ${p.name} va in ${t.name}: ha già comprato i biglietti aerei.`,
        (p, t) => `${p.name} è in vacanza in ${t.name} e ci manda foto tutti i giorni.`,
        (p, t) =>
          `${p.name} è appena ${g(p, 'tornato', 'tornata')} ${t.from} con centinaia di foto.`,
      ],
      ask: (p) => `Dove va in viaggio ${p.name}?`,
      askWho: (t) => `Chi va in ${t.name}?`,
      key: (t) => t.name,
    }),
    fact({
      kind: 'family',
      values: relatives,
      memories: [
        (p, r) => `${capital(r.the)} di ${p.name} ${r.news}.`,
        (p, r) => `Novità da ${p.name}: ${r.his} ${r.news}.`,
      ],
      ask: (p, r) => `Come sta ${r.ask} di ${p.name}?`,
    }),
    fact({
      kind: 'drink',
      values: drinks,
      memories: [
        (p, d) => `Appena ${g(p, 'sveglio', 'sveglia')}, ${p.name} beve ${d.a}: senza non carbura.`,
        (p, d) => `${p.name} arriva a ogni riunione con ${d.a} in mano.`,
      ],
      ask: (p) => `Cosa beve ${p.name} la mattina?`,
      askWho: (d) => `Chi prende di solito ${d.the}?`,
      key: (d) => d.name,
    }),
  ],
  events: [
    (a, b) => `Venerdì sera ho cenato in pizzeria con ${and(a, b)} e abbiamo fatto tardi.`,
    (a, b) => `${and(a, b)} sono andat${plural(a, b)} insieme a un concerto il mese scorso.`,
    (a, b) =>
      `${a.name} mi ha presentato ${b.name}, che sta cercando casa anche ${b.female ? 'lei' : 'lui'}.`,
    (a, b) => `Mercoledì prossimo vedo ${and(a, b)} al bar per parlare del progetto.`,
    (a, b) => `Al matrimonio di ${a.name} ho rivisto ${b.name} dopo tanti anni.`,
    (a, b) =>
      `${a.name} ha prestato un romanzo ${toName(b)}, che glielo restituirà appena l'avrà finito.`,
    (a, b) => `Al telefono ${a.name} mi ha raccontato che ${b.name} ha cambiato lavoro.`,
    (a, b) => `${and(a, b)} hanno organizzato un weekend in campeggio; eravamo in otto.`,
    (a, b) => `A Capodanno ${and(a, b)} sono venut${plural(a, b)} a festeggiare da me.`,
    (a, b) =>
      `${a.name} ha aiutato ${b.name} a traslocare e poi ha avuto mal di schiena per due giorni.`,
    (a, b) =>
      `${and(a, b)} si sono iscritt${plural(a, b)} insieme al torneo di padel dell'azienda.`,
    (a, b) => `Ho incrociato ${a.name} in metro: tornava da un pranzo con ${b.name}.`,
  ],
  notes: [
    'Domani alle tre riunione con il cliente: non dimenticare il contratto firmato.',
    "L'affitto di questo mese va pagato entro il 5.",
    'Sabato mattina i bambini devono fare il richiamo del vaccino; prenotare prima sul sito della ASL.',
    "La macchina deve fare la revisione: l'officina ha posto martedì prossimo.",
    "Sull'estratto conto della carta c'è un addebito che non riconosco, chiamare la banca.",
    'La lavatrice perde acqua; il tecnico passa giovedì pomeriggio.',
    "La carta d'identità scade a marzo: prendere appuntamento per rinnovarla per tempo.",
    "La cena di Natale dell'ufficio è il 19 dicembre in un ristorante sui Navigli.",
    'Hanno aperto un forno nuovo vicino alla stazione e il pane ai cereali è buonissimo.',
    'I pomodori sul balcone cominciano a diventare rossi; basta annaffiarli ogni due giorni.',
    'La relazione trimestrale va consegnata la settimana prossima e mancano ancora i dati di vendita.',
    'Mi si è crepato lo schermo del telefono: ripararlo costa circa 150 euro.',
    'Entro fine anno voglio sistemare la libreria dello studio e regalare i libri che non leggo più.',
    "Mi restano sei ingressi sull'abbonamento della piscina.",
    'Il latte in frigo scade dopodomani, finirlo a colazione.',
    'La bolletta della luce è arrivata molto più alta del mese scorso: sarà colpa della stufetta.',
    'Questo weekend voglio vedere il nuovo film di fantascienza; comprare i biglietti online.',
    'La rimpatriata degli ex compagni di liceo è stata spostata al primo sabato del mese prossimo.',
    'Il divano ordinato online arriverà solo fra quattro settimane.',
    "La stampante dell'ufficio si è inceppata di nuovo; ho già avvisato l'assistenza informatica.",
    'Chiamare il nonno per sapere come va con la pressione.',
    "Il codice per ritirare il pacco al locker è nell'SMS della settimana scorsa.",
    'Voglio imparare a cucinare: comincio dalla frittata di zucchine.',
    "Mi restano cinque giorni di ferie, li tengo per l'autunno.",
    'I vicini del piano terra hanno una copia delle chiavi di casa.',
    "L'anno prossimo voglio prendere la patente: confrontare i prezzi delle autoscuole.",
    'Pagare il bollo della macchina entro la fine del mese.',
    'Riunione di condominio giovedì alle nove di sera: si vota il rifacimento della facciata.',
    'Leggere venti pagine ogni sera prima di dormire, senza saltare neanche un giorno.',
    "Dopo le analisi, il medico mi ha consigliato meno sale e un po' più di movimento.",
  ],
};
