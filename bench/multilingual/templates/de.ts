/** German templates of the multilingual recall set (text written for engram's benchmark). */
import { DAYS, fact, type LanguageTemplates, peopleOf, type Person } from './types.js';

const people = peopleOf([
  ['Lena', true],
  ['Jonas', false],
  ['Anna', true],
  ['Lukas', false],
  ['Sophie', true],
  ['Felix', false],
  ['Marie', true],
  ['Paul', false],
  ['Laura', true],
  ['Tim', false],
  ['Julia', true],
  ['Max', false],
  ['Hannah', true],
  ['Leon', false],
  ['Clara', true],
  ['Moritz', false],
  ['Emma', true],
  ['Jan', false],
  ['Lea', true],
  ['Niklas', false],
  ['Sarah', true],
  ['David', false],
  ['Katharina', true],
  ['Tobias', false],
  ['Johanna', true],
  ['Simon', false],
  ['Miriam', true],
  ['Florian', false],
  ['Nina', true],
  ['Sebastian', false],
  ['Ines', true],
  ['Matthias', false],
  ['Frieda', true],
  ['Benedikt', false],
  ['Greta', true],
  ['Stefan', false],
  ['Carla', true],
  ['Henrik', false],
  ['Ute', true],
  ['Ralf', false],
]);

/** The genitive of a first name: "Lenas", "Jonas'". */
function gen(p: Person): string {
  return /[sßxz]$/u.test(p.name) ? `${p.name}'` : `${p.name}s`;
}

function pron(p: Person): string {
  return p.female ? 'sie' : 'er';
}

/** "Sein"/"Ihr" (opening a sentence) in the nominative, for a relative of grammatical gender `fem`. */
function possessive(p: Person, fem: boolean): string {
  const stem = p.female ? 'Ihr' : 'Sein';
  return fem ? `${stem}e` : stem;
}

const MONTHS = [
  'Januar',
  'Februar',
  'März',
  'April',
  'Mai',
  'Juni',
  'Juli',
  'August',
  'September',
  'Oktober',
  'November',
  'Dezember',
];

const cities = [
  'Hamburg',
  'München',
  'Leipzig',
  'Köln',
  'Freiburg',
  'Dresden',
  'Bremen',
  'Münster',
  'Heidelberg',
  'Rostock',
  'Nürnberg',
  'Kiel',
  'Wien',
  'Zürich',
  'Graz',
];

const foods = [
  'Käsespätzle',
  'Wiener Schnitzel',
  'Rinderrouladen',
  'Currywurst',
  'Maultaschen',
  'Flammkuchen',
  'Sauerbraten',
  'Kartoffelsalat',
  'Linsensuppe',
  'Apfelstrudel',
  'Königsberger Klopse',
  'Leberkäse',
  'Kaiserschmarrn',
  'Dampfnudeln',
  'geräucherte Forelle',
];

const jobs = [
  { place: 'Krankenhaus', job: ['Krankenpfleger', 'Krankenpflegerin'], at: 'in einem Krankenhaus' },
  { place: 'Grundschule', job: ['Lehrer', 'Lehrerin'], at: 'an einer Grundschule' },
  { place: 'Bank', job: ['Kundenberater', 'Kundenberaterin'], at: 'bei einer Bank' },
  { place: 'Softwarefirma', job: ['Entwickler', 'Entwicklerin'], at: 'bei einer Softwarefirma' },
  { place: 'Verlag', job: ['Lektor', 'Lektorin'], at: 'in einem Verlag' },
  { place: 'Kanzlei', job: ['Anwalt', 'Anwältin'], at: 'in einer Kanzlei' },
  { place: 'Restaurant', job: ['Koch', 'Köchin'], at: 'in einem Restaurant' },
  { place: 'Apotheke', job: ['Apotheker', 'Apothekerin'], at: 'in einer Apotheke' },
  { place: 'Architekturbüro', job: ['Architekt', 'Architektin'], at: 'in einem Architekturbüro' },
  { place: 'Zeitung', job: ['Redakteur', 'Redakteurin'], at: 'bei einer Zeitung' },
  { place: 'Kita', job: ['Erzieher', 'Erzieherin'], at: 'in einer Kita' },
  { place: 'Tierarztpraxis', job: ['Tierarzt', 'Tierärztin'], at: 'in einer Tierarztpraxis' },
  {
    place: 'Rathaus',
    job: ['Verwaltungsangestellter', 'Verwaltungsangestellte'],
    at: 'im Rathaus',
  },
  { place: 'Bäckerei', job: ['Bäcker', 'Bäckerin'], at: 'in einer Bäckerei' },
];

const pets = [
  { animal: 'Katze', acc: 'eine Katze', name: 'Minka' },
  { animal: 'Hund', acc: 'einen Hund', name: 'Bello' },
  { animal: 'Kaninchen', acc: 'ein Kaninchen', name: 'Hoppel' },
  { animal: 'Wellensittich', acc: 'einen Wellensittich', name: 'Pieps' },
  { animal: 'Hamster', acc: 'einen Hamster', name: 'Krümel' },
  { animal: 'Schildkröte', acc: 'eine Schildkröte', name: 'Tilda' },
  { animal: 'Dackel', acc: 'einen Dackel', name: 'Waldi' },
  { animal: 'Kater', acc: 'einen Kater', name: 'Socke' },
  { animal: 'Meerschweinchen', acc: 'ein Meerschweinchen', name: 'Fridolin' },
];

const hobbies = [
  'Tennis',
  'Wandern',
  'Angeln',
  'Gitarre',
  'Aquarellmalerei',
  'Schach',
  'Schwimmen',
  'Marathonlaufen',
  'Fotografie',
  'Brotbacken',
  'Yoga',
  'Rennradfahren',
  'Gärtnern',
  'Klettern',
  'Töpfern',
];

const allergies = [
  'Erdnüsse',
  'Meeresfrüchte',
  'Katzenhaare',
  'Pollen',
  'Haselnüsse',
  'Eier',
  'Kuhmilch',
  'Penicillin',
];

const trips = [
  'Portugal',
  'Norwegen',
  'Japan',
  'Island',
  'Kroatien',
  'Schottland',
  'Griechenland',
  'Marokko',
  'Kanada',
  'Sizilien',
  'Südtirol',
  'Irland',
];

const relatives = [
  { who: 'Tochter', fem: true, news: 'kommt im September in die Schule und freut sich riesig' },
  { who: 'Sohn', fem: false, news: 'studiert Maschinenbau und wohnt im Studentenwohnheim' },
  {
    who: 'Schwester',
    fem: true,
    news: 'heiratet nächsten Monat, die Feier ist auf einem Bauernhof',
  },
  { who: 'Bruder', fem: false, news: 'hat in seiner Heimatstadt ein kleines Café eröffnet' },
  {
    who: 'Mutter',
    fem: true,
    news: 'hatte letzten Monat eine Knieoperation und geht jetzt zur Reha',
  },
  {
    who: 'Vater',
    fem: false,
    news: 'ist gerade in Rente gegangen und geht jeden Morgen spazieren',
  },
];

const drinks = [
  { name: 'grüner Tee', acc: 'grünen Tee' },
  { name: 'schwarzer Kaffee', acc: 'schwarzen Kaffee' },
  { name: 'Kräutertee', acc: 'Kräutertee' },
  { name: 'Apfelschorle', acc: 'Apfelschorle' },
  { name: 'Kakao', acc: 'Kakao' },
  { name: 'Espresso', acc: 'Espresso' },
  { name: 'Pfefferminztee', acc: 'Pfefferminztee' },
  { name: 'Hafermilch', acc: 'Hafermilch' },
];

/** The German templates. */
export const de: LanguageTemplates = {
  lang: 'de',
  label: 'German',
  people,
  facts: [
    fact({
      kind: 'city',
      values: cities,
      memories: [
        (p, c) =>
          `${p.name} ist letztes Jahr nach ${c} gezogen und wohnt jetzt in einer Altbauwohnung.`,
        (p, c) => `${p.name} wohnt in ${c} und fährt jeden Tag mit dem Rad zur Arbeit.`,
        (p, c) => `${p.name} lebt schon immer in ${c} und fährt nur an Weihnachten zu den Eltern.`,
      ],
      ask: (p) => `Wo wohnt ${p.name} inzwischen?`,
      askWho: (c) => `Wer wohnt in ${c}?`,
    }),
    fact({
      kind: 'food',
      values: foods,
      memories: [
        (p, f) => `${p.name} isst am liebsten ${f} und bestellt das fast jedes Mal.`,
        (p, f) => `${p.name} sagt, ${f} nach Omas Rezept sei das beste Essen der Welt.`,
      ],
      ask: (p) => `Was isst ${p.name} am liebsten?`,
      askWho: (f) => `Wer mag ${f}?`,
    }),
    fact({
      kind: 'job',
      values: jobs,
      memories: [
        (p, j) =>
          `${p.name} arbeitet als ${j.job[p.female ? 1 : 0]} ${j.at} und macht das schon seit drei Jahren.`,
        (p, j) =>
          `${p.name} ist ${j.job[p.female ? 1 : 0]} ${j.at}; in letzter Zeit gibt es viele Überstunden.`,
      ],
      ask: (p) => `Was arbeitet ${p.name}?`,
      askWho: (j) => `Wer von meinen Bekannten arbeitet ${j.at}?`,
      key: (j) => j.place,
    }),
    fact({
      kind: 'pet',
      values: pets,
      memories: [
        (p, v) => `${p.name} hat ${v.acc} namens ${v.name}.`,
        (p, v) => `${gen(p)} ${v.animal} ${v.name} war letzte Woche krank und musste zum Tierarzt.`,
      ],
      ask: (p) => `Wie heißt das Haustier von ${p.name}?`,
      askWho: (v) => `Wer hat ${v.acc}?`,
      key: (v) => v.animal,
    }),
    fact({
      kind: 'hobby',
      values: hobbies,
      memories: [
        (p, h) =>
          `${p.name} hat vor zwei Jahren mit ${h} angefangen und ist seitdem jedes Wochenende dabei.`,
        (p, h) =>
          `${gen(p)} großes Hobby ist ${h}; dafür nimmt ${pron(p)} sich jeden Samstag Zeit.`,
      ],
      ask: (p) => `Welches Hobby hat ${p.name}?`,
      askWho: (h) => `Wer interessiert sich für ${h}?`,
    }),
    fact({
      kind: 'birthday',
      values: DAYS,
      memories: [
        (p, d) =>
          `${p.name} hat am ${d.day}. ${MONTHS[d.month - 1]} Geburtstag und freut sich immer über Bücher.`,
        (p, d) =>
          `Am ${d.day}. ${MONTHS[d.month - 1]} ist ${gen(p)} Geburtstag – rechtzeitig eine Torte bestellen!`,
      ],
      ask: (p) => `Wann hat ${p.name} Geburtstag?`,
    }),
    fact({
      kind: 'allergy',
      values: allergies,
      memories: [
        (p, a) => `${p.name} ist allergisch gegen ${a}, beim Essen also aufpassen.`,
        (p, a) => `Laut Arzt verträgt ${p.name} keine ${a} – ${pron(p)} hat eine starke Allergie.`,
      ],
      ask: (p) => `Wogegen ist ${p.name} allergisch?`,
      askWho: (a) => `Wer hat eine Allergie gegen ${a}?`,
    }),
    fact({
      kind: 'trip',
      values: trips,
      memories: [
        (p, t) => `${p.name} fliegt im Sommer nach ${t}; die Flüge sind schon gebucht.`,
        (p, t) => `${p.name} ist gerade aus ${t} zurück und hat unzählige Fotos mitgebracht.`,
      ],
      ask: (p) => `Wohin reist ${p.name}?`,
      askWho: (t) => `Wer fährt nach ${t}?`,
    }),
    fact({
      kind: 'family',
      values: relatives,
      memories: [
        (p, r) => `${gen(p)} ${r.who} ${r.news}.`,
        (p, r) => `Neues von ${p.name}: ${possessive(p, r.fem)} ${r.who} ${r.news}.`,
      ],
      ask: (p, r) => `Wie geht es ${gen(p)} ${r.who}?`,
    }),
    fact({
      kind: 'drink',
      values: drinks,
      memories: [
        (p, d) => `${p.name} trinkt morgens immer ${d.acc}, sonst geht gar nichts.`,
        (p, d) => `Zu jeder Besprechung bringt ${p.name} ${d.acc} mit.`,
      ],
      ask: (p) => `Was trinkt ${p.name} morgens?`,
      askWho: (d) => `Wer trinkt gern ${d.acc}?`,
      key: (d) => d.name,
    }),
  ],
  events: [
    (a, b) => `Am Freitagabend mit ${a.name} und ${b.name} beim Italiener gewesen, es wurde spät.`,
    (a, b) => `${a.name} und ${b.name} waren letzten Monat zusammen auf einem Konzert.`,
    (a, b) => `${a.name} hat mir ${b.name} vorgestellt; ${b.name} sucht auch gerade eine Wohnung.`,
    (a, b) =>
      `Nächsten Mittwoch treffe ich ${a.name} und ${b.name} im Café, um das Projekt zu besprechen.`,
    (a, b) => `Auf der Hochzeit von ${a.name} habe ich ${b.name} nach Jahren wiedergesehen.`,
    (a, b) => `${a.name} hat ${b.name} einen Roman geliehen, der nach dem Lesen zurückkommt.`,
    (a, b) => `Beim Telefonat mit ${a.name} kam heraus, dass ${b.name} den Job gewechselt hat.`,
    (a, b) => `${a.name} und ${b.name} haben ein Zeltwochenende organisiert, wir waren zu acht.`,
    (a, b) => `An Silvester haben ${a.name} und ${b.name} bei mir gefeiert.`,
    (a, b) =>
      `${a.name} hat ${b.name} beim Umzug geholfen und hatte danach zwei Tage Rückenschmerzen.`,
    (a, b) => `${a.name} und ${b.name} treten beim Tennisturnier der Firma im Doppel an.`,
    (a, b) =>
      `In der S-Bahn ${a.name} getroffen, gerade auf dem Rückweg vom Mittagessen mit ${b.name}.`,
  ],
  notes: [
    'Morgen um 15 Uhr Termin mit dem Kunden, den Vertrag nicht vergessen.',
    'Die Miete für diesen Monat muss bis zum Fünfzehnten überwiesen sein.',
    'Samstagvormittag ist der Impftermin für die Kinder, vorher online buchen.',
    'Das Auto muss zur Inspektion, die Werkstatt hat nächsten Dienstag Zeit.',
    'Auf der Kreditkartenabrechnung steht eine Abbuchung, die ich nicht kenne – bei der Bank anrufen.',
    'Die Waschmaschine leckt, der Handwerker kommt am Donnerstag.',
    'Der Reisepass läuft im März ab, rechtzeitig beim Bürgeramt verlängern.',
    'Die Weihnachtsfeier der Firma ist am 19. Dezember im Saal des Hotels.',
    'Am Bahnhof hat eine neue Bäckerei aufgemacht, das Vollkornbrot ist sehr gut.',
    'Die Tomaten auf dem Balkon werden rot, alle zwei Tage gießen reicht.',
    'Der Quartalsbericht ist nächste Woche fällig, die Zahlen vom Vertrieb fehlen noch.',
    'Das Handydisplay ist gesprungen, die Reparatur kostet rund 150 Euro.',
    'Bis Jahresende möchte ich das Bücherregal im Arbeitszimmer ausmisten.',
    'Auf der Zehnerkarte fürs Schwimmbad sind noch sechs Eintritte.',
    'Die Milch im Kühlschrank läuft übermorgen ab, zum Frühstück aufbrauchen.',
    'Die Stromrechnung ist deutlich höher als letzten Monat, vielleicht wegen des Heizlüfters.',
    'Am Wochenende will ich den neuen Science-Fiction-Film sehen, Karten vorher kaufen.',
    'Das Klassentreffen wurde auf den ersten Samstag im nächsten Monat verschoben.',
    'Das online bestellte Sofa wird erst in vier Wochen geliefert.',
    'Der Drucker im Büro hat schon wieder Papierstau, die IT ist informiert.',
    'Opa anrufen und fragen, wie es mit seinem Blutdruck aussieht.',
    'Der Code für die Paketstation steht in der SMS von letzter Woche.',
    'Ich will kochen lernen und fange mit Rührei an.',
    'Es sind noch fünf Urlaubstage übrig, die hebe ich mir für den Herbst auf.',
    'Ein Ersatzschlüssel liegt bei den Nachbarn im Erdgeschoss.',
    'Nächstes Jahr möchte ich den Führerschein machen, Preise der Fahrschulen vergleichen.',
    'Die U-Bahn fährt ab nächstem Monat am Wochenende die ganze Nacht.',
    'Jeden Abend vor dem Schlafen zwanzig Seiten lesen, dabei bleiben.',
    'Beim Check-up hieß es: weniger Salz und mehr Bewegung.',
    'Beim Umzug den Internetanschluss rechtzeitig ummelden.',
  ],
};
