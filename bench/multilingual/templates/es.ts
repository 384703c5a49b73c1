/** Spanish templates of the multilingual recall set (text written for engram's benchmark). */
import { DAYS, fact, g, type LanguageTemplates, peopleOf, type Person } from './types.js';

const people = peopleOf([
  ['Lucía', true],
  ['Pablo', false],
  ['María', true],
  ['Javier', false],
  ['Carmen', true],
  ['Diego', false],
  ['Laura', true],
  ['Alejandro', false],
  ['Sofía', true],
  ['Daniel', false],
  ['Elena', true],
  ['Manuel', false],
  ['Marta', true],
  ['Sergio', false],
  ['Paula', true],
  ['Andrés', false],
  ['Ana', true],
  ['Carlos', false],
  ['Isabel', true],
  ['Miguel', false],
  ['Cristina', true],
  ['Jorge', false],
  ['Valentina', true],
  ['Mateo', false],
  ['Raquel', true],
  ['Álvaro', false],
  ['Beatriz', true],
  ['Fernando', false],
  ['Natalia', true],
  ['Rubén', false],
  ['Pilar', true],
  ['Gonzalo', false],
  ['Irene', true],
  ['Luis', false],
  ['Camila', true],
  ['Tomás', false],
  ['Julia', true],
  ['Hugo', false],
  ['Rocío', true],
  ['Adrián', false],
]);

/** "Pablo y Lucía", but "Pablo e Irene" before an /i/ sound. */
function and(a: Person, b: Person): string {
  return `${a.name} ${/^h?[iíIÍ](?![aeiouáéó])/u.test(b.name) ? 'e' : 'y'} ${b.name}`;
}

/** "a" before a noun phrase with its article, contracted to "al" before "el". */
function to(x: string): string {
  return x.startsWith('el ') ? `al ${x.slice(3)}` : `a ${x}`;
}

const MONTHS = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
];

const cities = [
  'Madrid',
  'Barcelona',
  'Valencia',
  'Sevilla',
  'Bilbao',
  'Málaga',
  'Zaragoza',
  'Granada',
  'Salamanca',
  'Valladolid',
  'Ciudad de México',
  'Buenos Aires',
  'Bogotá',
  'Lima',
  'Montevideo',
];

/** A dish with its article; `plural` for the verb agreeing with it ("le gustan las lentejas"). */
const foods = [
  { name: 'la paella', plural: false },
  { name: 'la tortilla de patatas', plural: false },
  { name: 'el gazpacho', plural: false },
  { name: 'el cocido madrileño', plural: false },
  { name: 'las croquetas de jamón', plural: true },
  { name: 'el pulpo a la gallega', plural: false },
  { name: 'la fabada asturiana', plural: false },
  { name: 'las lentejas', plural: true },
  { name: 'el salmorejo', plural: false },
  { name: 'los huevos rotos', plural: true },
  { name: 'el ceviche', plural: false },
  { name: 'las empanadas', plural: true },
  { name: 'las arepas', plural: true },
  { name: 'el mole poblano', plural: false },
  { name: 'las patatas bravas', plural: true },
];

const jobs = [
  { place: 'hospital', job: ['enfermero', 'enfermera'], at: 'en un hospital' },
  { place: 'colegio', job: ['maestro', 'maestra'], at: 'en un colegio' },
  { place: 'banco', job: ['asesor financiero', 'asesora financiera'], at: 'en un banco' },
  {
    place: 'empresa de software',
    job: ['programador', 'programadora'],
    at: 'en una empresa de software',
  },
  { place: 'editorial', job: ['editor', 'editora'], at: 'en una editorial' },
  { place: 'bufete', job: ['abogado', 'abogada'], at: 'en un bufete' },
  { place: 'restaurante', job: ['cocinero', 'cocinera'], at: 'en un restaurante' },
  { place: 'farmacia', job: ['farmacéutico', 'farmacéutica'], at: 'en una farmacia' },
  {
    place: 'estudio de arquitectura',
    job: ['arquitecto', 'arquitecta'],
    at: 'en un estudio de arquitectura',
  },
  { place: 'periódico', job: ['periodista', 'periodista'], at: 'en un periódico' },
  {
    place: 'guardería',
    job: ['educador infantil', 'educadora infantil'],
    at: 'en una guardería',
  },
  {
    place: 'clínica veterinaria',
    job: ['veterinario', 'veterinaria'],
    at: 'en una clínica veterinaria',
  },
  { place: 'ayuntamiento', job: ['funcionario', 'funcionaria'], at: 'en el ayuntamiento' },
  { place: 'panadería', job: ['panadero', 'panadera'], at: 'en una panadería' },
];

const pets = [
  { animal: 'gato', a: 'un gato', the: 'el gato', fem: false, name: 'Michi' },
  { animal: 'perro', a: 'un perro', the: 'el perro', fem: false, name: 'Toby' },
  { animal: 'conejo', a: 'un conejo', the: 'el conejo', fem: false, name: 'Tambor' },
  { animal: 'periquito', a: 'un periquito', the: 'el periquito', fem: false, name: 'Piolín' },
  { animal: 'hámster', a: 'un hámster', the: 'el hámster', fem: false, name: 'Bolita' },
  { animal: 'tortuga', a: 'una tortuga', the: 'la tortuga', fem: true, name: 'Manuela' },
  {
    animal: 'perro salchicha',
    a: 'un perro salchicha',
    the: 'el perro salchicha',
    fem: false,
    name: 'Chorizo',
  },
  { animal: 'gata', a: 'una gata', the: 'la gata', fem: true, name: 'Nala' },
  { animal: 'cobaya', a: 'una cobaya', the: 'la cobaya', fem: true, name: 'Canela' },
];

const hobbies = [
  'el tenis',
  'el senderismo',
  'la pesca',
  'la guitarra',
  'la acuarela',
  'el ajedrez',
  'la natación',
  'el pádel',
  'la fotografía',
  'la repostería',
  'el yoga',
  'el ciclismo',
  'la jardinería',
  'la escalada',
  'la cerámica',
];

const allergies = [
  'los cacahuetes',
  'el marisco',
  'el pelo de gato',
  'el polen',
  'las avellanas',
  'el huevo',
  'la leche de vaca',
  'la penicilina',
];

const trips = [
  'Portugal',
  'Noruega',
  'Japón',
  'Islandia',
  'Croacia',
  'Escocia',
  'Grecia',
  'Marruecos',
  'Canadá',
  'Sicilia',
  'Irlanda',
  'Perú',
];

const relatives = [
  {
    who: 'hija',
    the: 'la hija',
    news: 'empieza el colegio en septiembre y está ilusionadísima',
  },
  {
    who: 'hijo',
    the: 'el hijo',
    news: 'estudia ingeniería industrial y vive en una residencia de estudiantes',
  },
  {
    who: 'hermana',
    the: 'la hermana',
    news: 'se casa el mes que viene y lo celebrarán en una finca',
  },
  { who: 'hermano', the: 'el hermano', news: 'ha abierto una pequeña cafetería en su pueblo' },
  {
    who: 'madre',
    the: 'la madre',
    news: 'se operó de la rodilla el mes pasado y ahora está con la rehabilitación',
  },
  {
    who: 'padre',
    the: 'el padre',
    news: 'se acaba de jubilar y sale a caminar todas las mañanas',
  },
  {
    who: 'abuela',
    the: 'la abuela',
    news: 'ha cumplido noventa años y lo ha celebrado con toda la familia',
  },
  {
    who: 'primo',
    the: 'el primo',
    news: 'se ha ido a trabajar a Alemania y está aprendiendo alemán',
  },
];

const drinks = [
  { name: 'té verde', a: 'un té verde' },
  { name: 'café solo', a: 'un café solo' },
  { name: 'manzanilla', a: 'una manzanilla' },
  { name: 'Cola Cao', a: 'un Cola Cao' },
  { name: 'café con leche', a: 'un café con leche' },
  { name: 'mate', a: 'un mate' },
  { name: 'poleo menta', a: 'un poleo menta' },
  { name: 'zumo de naranja', a: 'un zumo de naranja' },
];

/** The Spanish templates. */
export const es: LanguageTemplates = {
  lang: 'es',
  label: 'Spanish',
  people,
  facts: [
    fact({
      kind: 'city',
      values: cities,
      memories: [
        (p, c) =>
          `${p.name} se mudó a ${c} el año pasado y ahora vive en un piso antiguo del centro.`,
        (p, c) => `${p.name} vive en ${c} y va al trabajo en bici todos los días.`,
        (p, c) => `${p.name} ha vivido siempre en ${c} y solo va a ver a sus padres por Navidad.`,
      ],
      ask: (p) => `¿Dónde vive ahora ${p.name}?`,
      askWho: (c) => `¿Quién vive en ${c}?`,
    }),
    fact({
      kind: 'food',
      values: foods,
      memories: [
        (p, f) =>
          `Cuando salimos a comer, ${p.name} siempre pide ${f.name}; dice que no hay nada mejor.`,
        (p, f) => `Según ${p.name}, no hay nada en el mundo como ${f.name} de su abuela.`,
        (p, f) => `El plato favorito de ${p.name} ${f.plural ? 'son' : 'es'} ${f.name}.`,
      ],
      ask: (p) => `¿Cuál es la comida favorita de ${p.name}?`,
      askWho: (f) => `¿A quién le ${f.plural ? 'gustan' : 'gusta'} ${f.name}?`,
      key: (f) => f.name,
    }),
    fact({
      kind: 'job',
      values: jobs,
      memories: [
        (p, j) =>
          `${p.name} trabaja de ${j.job[p.female ? 1 : 0]} ${j.at} y ya lleva tres años allí.`,
        (p, j) =>
          `${p.name} es ${j.job[p.female ? 1 : 0]} ${j.at}; últimamente está haciendo muchas horas extra.`,
      ],
      ask: (p) => `¿En qué trabaja ${p.name}?`,
      askWho: (j) => `¿Quién de mis conocidos trabaja ${j.at}?`,
      key: (j) => j.place,
    }),
    fact({
      kind: 'pet',
      values: pets,
      memories: [
        (p, v) => `${p.name} tiene ${v.a} que se llama ${v.name}.`,
        (p, v) =>
          `${v.the.charAt(0).toUpperCase()}${v.the.slice(1)} de ${p.name}, ${v.name}, estuvo ${v.fem ? 'mala' : 'malo'} la semana pasada y hubo que llevar${v.fem ? 'la' : 'lo'} al veterinario.`,
      ],
      ask: (p) => `¿Cómo se llama la mascota de ${p.name}?`,
      askWho: (v) => `¿Quién tiene ${v.a}?`,
      key: (v) => v.animal,
    }),
    fact({
      kind: 'hobby',
      values: hobbies,
      memories: [
        (p, h) =>
          `${p.name} empezó con ${h} hace dos años y desde entonces le dedica todos los fines de semana.`,
        (p, h) =>
          `La gran afición de ${p.name} es ${h}; los sábados siempre saca un rato para eso.`,
      ],
      ask: (p) => `¿Qué aficiones tiene ${p.name}?`,
      askWho: (h) => `¿A quién le gusta ${h}?`,
    }),
    fact({
      kind: 'birthday',
      values: DAYS,
      memories: [
        (p, d) =>
          `${p.name} cumple años el ${d.day} de ${MONTHS[d.month - 1]} y siempre le hace ilusión que le regalen libros.`,
        (p, d) =>
          `El ${d.day} de ${MONTHS[d.month - 1]} es el cumpleaños de ${p.name}: ¡encargar la tarta con tiempo!`,
      ],
      ask: (p) => `¿Cuándo es el cumpleaños de ${p.name}?`,
    }),
    fact({
      kind: 'allergy',
      values: allergies,
      memories: [
        (p, a) =>
          `${p.name} es ${g(p, 'alérgico', 'alérgica')} ${to(a)}; hay que acordarse cuando ${g(p, 'lo', 'la')} invitemos a casa.`,
        (p, a) => `El médico le ha confirmado a ${p.name} que tiene una alergia fuerte ${to(a)}.`,
      ],
      ask: (p) => `¿A qué es ${g(p, 'alérgico', 'alérgica')} ${p.name}?`,
      askWho: (a) => `¿Quién tiene alergia ${to(a)}?`,
    }),
    fact({
      kind: 'trip',
      values: trips,
      memories: [
        (p, t) => `${p.name} se va a ${t} este verano; ya tiene los billetes de avión.`,
        (p, t) => `${p.name} está de viaje por ${t} y manda fotos todos los días.`,
        (p, t) => `${p.name} acaba de volver de ${t} y ha traído cientos de fotos.`,
      ],
      ask: (p) => `¿Adónde se va de viaje ${p.name}?`,
      askWho: (t) => `¿Quién se va de viaje a ${t}?`,
    }),
    fact({
      kind: 'family',
      values: relatives,
      memories: [
        (p, r) => `${r.the.charAt(0).toUpperCase()}${r.the.slice(1)} de ${p.name} ${r.news}.`,
        (p, r) => `Novedades de ${p.name}: su ${r.who} ${r.news}.`,
      ],
      ask: (p, r) => `¿Qué tal está ${r.the} de ${p.name}?`,
    }),
    fact({
      kind: 'drink',
      values: drinks,
      memories: [
        (p, d) => `${p.name} se toma ${d.a} nada más levantarse; sin eso no es persona.`,
        (p, d) => `${p.name} llega a todas las reuniones con ${d.a} en la mano.`,
      ],
      ask: (p) => `¿Qué toma ${p.name} por las mañanas?`,
      askWho: (d) => `¿Quién suele tomar ${d.name}?`,
      key: (d) => d.name,
    }),
  ],
  events: [
    (a, b) => `El viernes por la noche cené con ${and(a, b)} en el italiano y se nos hizo tarde.`,
    (a, b) =>
      `${and(a, b)} fueron ${a.female && b.female ? 'juntas' : 'juntos'} a un concierto el mes pasado.`,
    (a, b) => `${a.name} me presentó a ${b.name}, que también está buscando piso.`,
    (a, b) =>
      `El miércoles que viene he quedado con ${and(a, b)} en la cafetería para hablar del proyecto.`,
    (a, b) => `En la boda de ${a.name} volví a ver a ${b.name} después de muchos años.`,
    (a, b) =>
      `${a.name} le ha prestado una novela a ${b.name}, que se la devolverá cuando la acabe.`,
    (a, b) =>
      `Hablando por teléfono con ${a.name} me enteré de que ${b.name} había cambiado de trabajo.`,
    (a, b) => `${and(a, b)} organizaron un fin de semana de acampada; fuimos ocho.`,
    (a, b) => `En Nochevieja, ${and(a, b)} vinieron a celebrarlo a mi casa.`,
    (a, b) =>
      `${a.name} ayudó a ${b.name} con la mudanza y luego se pasó dos días con dolor de espalda.`,
    (a, b) =>
      `${and(a, b)} se han apuntado ${a.female && b.female ? 'juntas' : 'juntos'} al torneo de pádel de la empresa.`,
    (a, b) => `Me crucé con ${a.name} en el metro; volvía de comer con ${b.name}.`,
  ],
  notes: [
    'Mañana a las tres, reunión con el cliente: no olvidar el contrato.',
    'Hay que pagar el alquiler de este mes antes del día 5.',
    'El sábado por la mañana toca vacunar a los niños; pedir cita antes por internet.',
    'El coche tiene que pasar la ITV; en el taller tienen hueco el martes que viene.',
    'En el extracto de la tarjeta aparece un cargo que no reconozco: llamar al banco.',
    'La lavadora pierde agua; el técnico viene el jueves.',
    'El DNI caduca en marzo, pedir cita para renovarlo con tiempo.',
    'La cena de Navidad de la empresa es el 19 de diciembre en el salón del hotel.',
    'Han abierto una panadería nueva al lado de la estación y el pan integral está buenísimo.',
    'Los tomates del balcón ya se están poniendo rojos; basta con regarlos cada dos días.',
    'El informe trimestral hay que entregarlo la semana que viene y aún faltan las cifras de ventas.',
    'Se me ha roto la pantalla del móvil; arreglarla cuesta unos 150 euros.',
    'Antes de fin de año quiero ordenar la estantería del despacho y regalar los libros que sobran.',
    'Me quedan seis entradas en el bono de la piscina.',
    'La leche de la nevera caduca pasado mañana; gastarla en el desayuno.',
    'La factura de la luz ha venido mucho más alta que el mes pasado, será por el radiador.',
    'Este fin de semana quiero ver la nueva película de ciencia ficción; sacar las entradas antes.',
    'La cena de antiguos alumnos se ha aplazado al primer sábado del mes que viene.',
    'El sofá que pedí por internet no llega hasta dentro de cuatro semanas.',
    'La impresora de la oficina se ha vuelto a atascar; ya he avisado a informática.',
    'Llamar al abuelo para preguntarle qué tal va de la tensión.',
    'El código para recoger el paquete en la taquilla está en el SMS de la semana pasada.',
    'Quiero aprender a cocinar; empezaré por la tortilla francesa.',
    'Me quedan cinco días de vacaciones; los guardo para el otoño.',
    'Los vecinos del bajo tienen una copia de las llaves de casa.',
    'El año que viene quiero sacarme el carné de conducir; comparar precios de autoescuelas.',
    'A partir del mes que viene, el metro abrirá toda la noche los fines de semana.',
    'Leer veinte páginas cada noche antes de dormir, y no dejarlo.',
    'En la revisión médica me dijeron que tomara menos sal e hiciera más ejercicio.',
    'El seguro del coche vence en junio: comparar ofertas antes de renovarlo.',
  ],
};
