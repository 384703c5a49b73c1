/** French templates of the multilingual recall set (text written for engram's benchmark). */
import { DAYS, fact, type LanguageTemplates, peopleOf, type Person } from './types.js';

const people = peopleOf([
  ['Camille', true],
  ['Thomas', false],
  ['Léa', true],
  ['Nicolas', false],
  ['Chloé', true],
  ['Julien', false],
  ['Manon', true],
  ['Antoine', false],
  ['Émilie', true],
  ['Maxime', false],
  ['Julie', true],
  ['Hugo', false],
  ['Marion', true],
  ['Lucas', false],
  ['Pauline', true],
  ['Pierre', false],
  ['Claire', true],
  ['Guillaume', false],
  ['Sophie', true],
  ['Mathieu', false],
  ['Lucie', true],
  ['Louis', false],
  ['Mathilde', true],
  ['Alexandre', false],
  ['Inès', true],
  ['Romain', false],
  ['Élodie', true],
  ['Olivier', false],
  ['Charlotte', true],
  ['Théo', false],
  ['Anaïs', true],
  ['Baptiste', false],
  ['Margaux', true],
  ['Vincent', false],
  ['Hélène', true],
  ['Étienne', false],
  ['Nathalie', true],
  ['François', false],
  ['Isabelle', true],
  ['Arthur', false],
]);

/** Whether a word elides a preceding "de", "que" ("d'Émilie", "qu'Hugo"). */
function vowel(word: string): boolean {
  return /^[aeiouyhàâéèêîïôû]/iu.test(word);
}

/** "de Thomas", "d'Émilie". */
function of(p: Person): string {
  return vowel(p.name) ? `d'${p.name}` : `de ${p.name}`;
}

/** "que Thomas", "qu'Émilie". */
function that(p: Person): string {
  return vowel(p.name) ? `qu'${p.name}` : `que ${p.name}`;
}

function pron(p: Person): string {
  return p.female ? 'elle' : 'il';
}

/** "à" before a noun phrase with its article: "au tennis", "aux échecs", "à la pêche". */
function to(x: string): string {
  if (x.startsWith('le ')) return `au ${x.slice(3)}`;
  if (x.startsWith('les ')) return `aux ${x.slice(4)}`;
  return `à ${x}`;
}

function capital(s: string): string {
  return `${s.charAt(0).toUpperCase()}${s.slice(1)}`;
}

/** The plural past participle ending for a pair of people ("allées" only if both are women). */
function plural(a: Person, b: Person): string {
  return a.female && b.female ? 'es' : 's';
}

const MONTHS = [
  'janvier',
  'février',
  'mars',
  'avril',
  'mai',
  'juin',
  'juillet',
  'août',
  'septembre',
  'octobre',
  'novembre',
  'décembre',
];

const cities = [
  'Lyon',
  'Marseille',
  'Bordeaux',
  'Nantes',
  'Lille',
  'Toulouse',
  'Strasbourg',
  'Montpellier',
  'Rennes',
  'Nice',
  'Bruxelles',
  'Liège',
  'Genève',
  'Lausanne',
  'Montréal',
];

/** A dish with its article; `plural` for "ce sont les moules-frites". */
const foods = [
  { name: 'le bœuf bourguignon', plural: false },
  { name: 'la blanquette de veau', plural: false },
  { name: 'le gratin dauphinois', plural: false },
  { name: 'la quiche lorraine', plural: false },
  { name: 'le cassoulet', plural: false },
  { name: 'la raclette', plural: false },
  { name: 'la tartiflette', plural: false },
  { name: 'le coq au vin', plural: false },
  { name: 'la ratatouille', plural: false },
  { name: 'les moules-frites', plural: true },
  { name: 'la choucroute', plural: false },
  { name: 'la bouillabaisse', plural: false },
  { name: 'la fondue savoyarde', plural: false },
  { name: 'la poutine', plural: false },
  { name: 'la tarte Tatin', plural: false },
];

const jobs = [
  { place: 'hôpital', job: ['infirmier', 'infirmière'], at: 'dans un hôpital' },
  { place: 'école', job: ['instituteur', 'institutrice'], at: 'dans une école primaire' },
  {
    place: 'banque',
    job: ['conseiller clientèle', 'conseillère clientèle'],
    at: 'dans une banque',
  },
  {
    place: 'logiciels',
    job: ['développeur', 'développeuse'],
    at: 'dans une société de logiciels',
  },
  { place: 'édition', job: ['éditeur', 'éditrice'], at: "dans une maison d'édition" },
  { place: 'avocats', job: ['avocat', 'avocate'], at: "dans un cabinet d'avocats" },
  { place: 'restaurant', job: ['cuisinier', 'cuisinière'], at: 'dans un restaurant' },
  { place: 'pharmacie', job: ['pharmacien', 'pharmacienne'], at: 'dans une pharmacie' },
  {
    place: 'architectes',
    job: ['architecte', 'architecte'],
    at: "dans un cabinet d'architectes",
  },
  { place: 'journal', job: ['journaliste', 'journaliste'], at: 'dans un quotidien régional' },
  {
    place: 'crèche',
    job: ['auxiliaire de puériculture', 'auxiliaire de puériculture'],
    at: 'dans une crèche',
  },
  {
    place: 'vétérinaire',
    job: ['vétérinaire', 'vétérinaire'],
    at: 'dans une clinique vétérinaire',
  },
  { place: 'mairie', job: ['agent administratif', 'agente administrative'], at: 'à la mairie' },
  { place: 'boulangerie', job: ['boulanger', 'boulangère'], at: 'dans une boulangerie' },
];

const pets = [
  { animal: 'chat', a: 'un chat', the: 'le chat', name: 'Caramel' },
  { animal: 'chien', a: 'un chien', the: 'le chien', name: 'Filou' },
  { animal: 'lapin', a: 'un lapin', the: 'le lapin', name: 'Pompon' },
  { animal: 'perruche', a: 'une perruche', the: 'la perruche', name: 'Kiwi' },
  { animal: 'hamster', a: 'un hamster', the: 'le hamster', name: 'Noisette' },
  { animal: 'tortue', a: 'une tortue', the: 'la tortue', name: 'Caroline' },
  { animal: 'teckel', a: 'un teckel', the: 'le teckel', name: 'Oscar' },
  { animal: 'furet', a: 'un furet', the: 'le furet', name: 'Gribouille' },
  { animal: "cochon d'Inde", a: "un cochon d'Inde", the: "le cochon d'Inde", name: 'Biscotte' },
];

/** A pastime with its article; `plural` for "ce sont les échecs". */
const hobbies = [
  { name: 'le tennis', plural: false },
  { name: 'la randonnée', plural: false },
  { name: 'la pêche', plural: false },
  { name: 'la guitare', plural: false },
  { name: "l'aquarelle", plural: false },
  { name: 'les échecs', plural: true },
  { name: 'la natation', plural: false },
  { name: 'la course à pied', plural: false },
  { name: 'la photo', plural: false },
  { name: 'la pâtisserie', plural: false },
  { name: 'le yoga', plural: false },
  { name: 'le vélo', plural: false },
  { name: 'le jardinage', plural: false },
  { name: "l'escalade", plural: false },
  { name: 'la poterie', plural: false },
];

const allergies = [
  'les cacahuètes',
  'les fruits de mer',
  'les poils de chat',
  'le pollen',
  'les noisettes',
  'les œufs',
  'le lait de vache',
  'la pénicilline',
];

/** A destination with "to" and "from" forms: "au Portugal", "du Portugal". */
const trips = [
  { name: 'Portugal', to: 'au Portugal', from: 'du Portugal' },
  { name: 'Norvège', to: 'en Norvège', from: 'de Norvège' },
  { name: 'Japon', to: 'au Japon', from: 'du Japon' },
  { name: 'Islande', to: 'en Islande', from: "d'Islande" },
  { name: 'Croatie', to: 'en Croatie', from: 'de Croatie' },
  { name: 'Écosse', to: 'en Écosse', from: "d'Écosse" },
  { name: 'Grèce', to: 'en Grèce', from: 'de Grèce' },
  { name: 'Maroc', to: 'au Maroc', from: 'du Maroc' },
  { name: 'Canada', to: 'au Canada', from: 'du Canada' },
  { name: 'Sicile', to: 'en Sicile', from: 'de Sicile' },
  { name: 'Irlande', to: 'en Irlande', from: "d'Irlande" },
  { name: 'Vietnam', to: 'au Vietnam', from: 'du Vietnam' },
];

const relatives = [
  {
    who: 'fille',
    the: 'la fille',
    his: 'sa fille',
    news: 'entre au CP à la rentrée et a hâte de commencer',
  },
  {
    who: 'fils',
    the: 'le fils',
    his: 'son fils',
    news: "fait une école d'ingénieurs et vit en résidence étudiante",
  },
  {
    who: 'sœur',
    the: 'la sœur',
    his: 'sa sœur',
    news: 'se marie le mois prochain, la fête aura lieu dans une ferme',
  },
  {
    who: 'frère',
    the: 'le frère',
    his: 'son frère',
    news: "vient d'ouvrir un petit café dans sa ville natale",
  },
  {
    who: 'mère',
    the: 'la mère',
    his: 'sa mère',
    news: "s'est fait opérer du genou le mois dernier et fait maintenant de la rééducation",
  },
  {
    who: 'père',
    the: 'le père',
    his: 'son père',
    news: 'vient de prendre sa retraite et part marcher tous les matins',
  },
  {
    who: 'grand-mère',
    the: 'la grand-mère',
    his: 'sa grand-mère',
    news: 'a fêté ses quatre-vingt-dix ans entourée de toute la famille',
  },
  {
    who: 'cousin',
    the: 'le cousin',
    his: 'son cousin',
    news: "est parti travailler en Allemagne et apprend l'allemand",
  },
];

/** A drink with an article ("un thé vert") and the partitive ("du thé vert"). */
const drinks = [
  { name: 'thé vert', a: 'un thé vert', some: 'du thé vert' },
  { name: 'café noir', a: 'un café noir', some: 'du café noir' },
  { name: 'tisane', a: 'une tisane', some: 'de la tisane' },
  { name: 'chocolat chaud', a: 'un chocolat chaud', some: 'du chocolat chaud' },
  { name: "jus d'orange", a: "un jus d'orange", some: "du jus d'orange" },
  { name: 'café au lait', a: 'un grand café au lait', some: 'du café au lait' },
  { name: 'thé à la menthe', a: 'un thé à la menthe', some: 'du thé à la menthe' },
  { name: 'chicorée', a: 'une chicorée', some: 'de la chicorée' },
];

/** The French templates. */
export const fr: LanguageTemplates = {
  lang: 'fr',
  label: 'French',
  people,
  facts: [
    fact({
      kind: 'city',
      values: cities,
      memories: [
        (p, c) =>
          `${p.name} a déménagé à ${c} l'an dernier et vit maintenant dans un vieil immeuble du centre.`,
        (p, c) => `${p.name} habite à ${c} et va au travail à vélo tous les jours.`,
        (p, c) => `${p.name} a toujours vécu à ${c} et ne rentre chez ses parents qu'à Noël.`,
      ],
      ask: (p) => `Où habite ${p.name} maintenant ?`,
      askWho: (c) => `Qui habite à ${c} ?`,
    }),
    fact({
      kind: 'food',
      values: foods,
      memories: [
        (p, f) =>
          `Au restaurant, ${p.name} prend presque toujours ${f.name} ; pour ${p.female ? 'elle' : 'lui'}, rien n'est meilleur.`,
        (p, f) => `D'après ${p.name}, rien ne vaut ${f.name} de sa grand-mère.`,
        (p, f) => `Le plat préféré ${of(p)}, ${f.plural ? 'ce sont' : "c'est"} ${f.name}.`,
      ],
      ask: (p) => `Quel est le plat préféré ${of(p)} ?`,
      askWho: (f) => `Qui aime ${f.name} ?`,
      key: (f) => f.name,
    }),
    fact({
      kind: 'job',
      values: jobs,
      memories: [
        (p, j) => `${p.name} travaille comme ${j.job[p.female ? 1 : 0]} ${j.at} depuis trois ans.`,
        (p, j) =>
          `${p.name} est ${j.job[p.female ? 1 : 0]} ${j.at} ; en ce moment, les heures sup s'enchaînent.`,
      ],
      ask: (p) => `Que fait ${p.name} dans la vie ?`,
      askWho: (j) => `Qui, parmi mes proches, travaille ${j.at} ?`,
      key: (j) => j.place,
    }),
    fact({
      kind: 'pet',
      values: pets,
      memories: [
        (p, v) => `${p.name} a ${v.a} qui s'appelle ${v.name}.`,
        (p, v) =>
          `${capital(v.the)} ${of(p)}, ${v.name}, était malade la semaine dernière et a dû aller chez le vétérinaire.`,
      ],
      ask: (p) => `Comment s'appelle l'animal ${of(p)} ?`,
      askWho: (v) => `Qui a ${v.a} ?`,
      key: (v) => v.animal,
    }),
    fact({
      kind: 'hobby',
      values: hobbies,
      memories: [
        (p, h) =>
          `${p.name} s'est ${p.female ? 'mise' : 'mis'} ${to(h.name)} il y a deux ans et depuis, ${pron(p)} y consacre tous ses week-ends.`,
        (p, h) =>
          `La grande passion ${of(p)}, ${h.plural ? 'ce sont' : "c'est"} ${h.name} ; ${pron(p)} y passe tous ses samedis.`,
      ],
      ask: (p) => `Quels sont les loisirs ${of(p)} ?`,
      askWho: (h) => `Qui s'intéresse ${to(h.name)} ?`,
      key: (h) => h.name,
    }),
    fact({
      kind: 'birthday',
      values: DAYS,
      memories: [
        (p, d) =>
          `${p.name} fête son anniversaire le ${d.day === 1 ? '1er' : d.day} ${MONTHS[d.month - 1]} et adore qu'on lui offre des livres.`,
        (p, d) =>
          `Le ${d.day === 1 ? '1er' : d.day} ${MONTHS[d.month - 1]}, c'est l'anniversaire ${of(p)} : penser à commander un gâteau à temps !`,
      ],
      ask: (p) => `C'est quand, l'anniversaire ${of(p)} ?`,
    }),
    fact({
      kind: 'allergy',
      values: allergies,
      memories: [
        (p, a) =>
          `${p.name} est allergique ${to(a)}, il faudra y penser quand ${pron(p)} viendra à la maison.`,
        (p, a) => `D'après le médecin, ${p.name} a une allergie sévère ${to(a)}.`,
      ],
      ask: (p) => `À quoi ${p.name} est-${pron(p)} allergique ?`,
      askWho: (a) => `Qui est allergique ${to(a)} ?`,
    }),
    fact({
      kind: 'trip',
      values: trips,
      memories: [
        (p, t) => `${p.name} part ${t.to} cet été ; les billets d'avion sont déjà réservés.`,
        (p, t) => `${p.name} est en voyage ${t.to} et envoie des photos tous les jours.`,
        (p, t) => `${p.name} vient de rentrer ${t.from} et a rapporté des centaines de photos.`,
      ],
      ask: (p) => `Où ${p.name} part-${pron(p)} en voyage ?`,
      askWho: (t) => `Qui part ${t.to} ?`,
      key: (t) => t.name,
    }),
    fact({
      kind: 'family',
      values: relatives,
      memories: [
        (p, r) => `${capital(r.the)} ${of(p)} ${r.news}.`,
        (p, r) => `Des nouvelles ${of(p)} : ${r.his} ${r.news}.`,
      ],
      ask: (p, r) => `Comment va ${r.the} ${of(p)} ?`,
    }),
    fact({
      kind: 'drink',
      values: drinks,
      memories: [
        (p, d) =>
          `${p.name} commence toujours la journée par ${d.a} ; sans ça, impossible de se réveiller.`,
        (p, d) => `${p.name} arrive à chaque réunion avec ${d.a} à la main.`,
      ],
      ask: (p) => `Que boit ${p.name} le matin ?`,
      askWho: (d) => `Qui boit ${d.some} ?`,
      key: (d) => d.name,
    }),
  ],
  events: [
    (a, b) => `Vendredi soir, resto italien avec ${a.name} et ${b.name} ; on a fini tard.`,
    (a, b) =>
      `${a.name} et ${b.name} sont allé${plural(a, b)} ensemble à un concert le mois dernier.`,
    (a, b) => `${a.name} m'a présenté ${b.name}, qui cherche aussi un appartement.`,
    (a, b) =>
      `Mercredi prochain, je retrouve ${a.name} et ${b.name} au café pour parler du projet.`,
    (a, b) => `Au mariage ${of(a)}, j'ai revu ${b.name} après des années.`,
    (a, b) => `${a.name} a prêté un roman à ${b.name}, qui le lui rendra une fois fini.`,
    (a, b) => `Au téléphone, ${a.name} m'a appris ${that(b)} avait changé de travail.`,
    (a, b) => `${a.name} et ${b.name} ont organisé un week-end en camping ; on était huit.`,
    (a, b) => `${a.name} et ${b.name} sont venu${plural(a, b)} fêter le Nouvel An chez moi.`,
    (a, b) => `${a.name} a aidé ${b.name} à déménager et a eu mal au dos pendant deux jours.`,
    (a, b) => `${a.name} et ${b.name} font équipe en double au tournoi de tennis de la boîte.`,
    (a, b) =>
      `J'ai croisé ${a.name} dans le métro ; ${pron(a)} revenait d'un déjeuner avec ${b.name}.`,
  ],
  notes: [
    'Demain à 15 h, rendez-vous avec le client : ne pas oublier le contrat.',
    'Le loyer de ce mois-ci doit être viré avant le 5.',
    'Samedi matin, vaccins des enfants : prendre rendez-vous en ligne avant.',
    'La voiture doit passer le contrôle technique ; le garage a une place mardi prochain.',
    'Il y a un prélèvement que je ne reconnais pas sur mon relevé de carte : appeler la banque.',
    'Le lave-linge fuit, le réparateur passe jeudi.',
    'Mon passeport expire en mars, faire la demande de renouvellement à la mairie à temps.',
    "Le repas de Noël de la boîte a lieu le 19 décembre dans la salle de réception de l'hôtel.",
    'Une nouvelle boulangerie a ouvert près de la gare, leur pain aux céréales est excellent.',
    'Les tomates du balcon commencent à rougir ; les arroser tous les deux jours suffit.',
    'Le rapport trimestriel est à rendre la semaine prochaine, il manque encore les chiffres des ventes.',
    "L'écran de mon téléphone est fissuré ; la réparation coûte environ 150 euros.",
    "D'ici la fin de l'année, faire le tri dans la bibliothèque du bureau.",
    'Il me reste six entrées sur ma carte de piscine.',
    'Le lait du frigo se périme après-demain, le finir au petit-déjeuner.',
    "La facture d'électricité est bien plus élevée que le mois dernier, sûrement à cause du radiateur d'appoint.",
    'Ce week-end, je veux voir le nouveau film de science-fiction ; réserver les places avant.',
    'Les retrouvailles des anciens du lycée sont repoussées au premier samedi du mois prochain.',
    'Le canapé commandé en ligne ne sera livré que dans quatre semaines.',
    "L'imprimante du bureau est encore bloquée par un bourrage papier, le service informatique est prévenu.",
    'Appeler papi pour savoir où en est sa tension.',
    'Le code du casier à colis est dans le SMS de la semaine dernière.',
    'Je veux apprendre à cuisiner, je commence par les œufs brouillés.',
    "Il me reste cinq jours de congé, je les garde pour l'automne.",
    'Les voisins du rez-de-chaussée ont un double de mes clés.',
    "L'an prochain, je veux passer le permis ; comparer les prix des auto-écoles.",
    'À partir du mois prochain, le métro circulera toute la nuit le week-end.',
    "Lire vingt pages chaque soir avant de dormir, et m'y tenir.",
    "Au bilan de santé, le médecin m'a dit : moins de sel et plus de sport.",
    "Penser à résilier l'abonnement à la salle de sport avant la fin du mois.",
  ],
};
