/**
 * Portuguese templates of the multilingual recall set, in Brazilian Portuguese (text written for
 * engram's benchmark).
 */
import { DAYS, fact, g, type LanguageTemplates, peopleOf, type Person } from './types.js';

const people = peopleOf([
  ['Ana', true],
  ['João', false],
  ['Mariana', true],
  ['Pedro', false],
  ['Juliana', true],
  ['Lucas', false],
  ['Beatriz', true],
  ['Gabriel', false],
  ['Fernanda', true],
  ['Rafael', false],
  ['Camila', true],
  ['Thiago', false],
  ['Larissa', true],
  ['Bruno', false],
  ['Letícia', true],
  ['Felipe', false],
  ['Carolina', true],
  ['Gustavo', false],
  ['Patrícia', true],
  ['Rodrigo', false],
  ['Aline', true],
  ['Marcelo', false],
  ['Renata', true],
  ['Eduardo', false],
  ['Vanessa', true],
  ['Leonardo', false],
  ['Isabela', true],
  ['Matheus', false],
  ['Luana', true],
  ['Diego', false],
  ['Tatiana', true],
  ['André', false],
  ['Helena', true],
  ['Vinícius', false],
  ['Priscila', true],
  ['Ricardo', false],
  ['Natália', true],
  ['Caio', false],
  ['Bianca', true],
  ['Otávio', false],
]);

/** "do João", "da Ana": "de" with the article Brazilians put before a name. */
function of(p: Person): string {
  return `${g(p, 'do', 'da')} ${p.name}`;
}

/** "o João", "a Ana". */
function the(p: Person): string {
  return `${g(p, 'o', 'a')} ${p.name}`;
}

/** "ele", "ela". */
function pron(p: Person): string {
  return g(p, 'ele', 'ela');
}

/** "juntos", or "juntas" only if both are women. */
function together(a: Person, b: Person): string {
  return a.female && b.female ? 'juntas' : 'juntos';
}

function capital(s: string): string {
  return `${s.charAt(0).toUpperCase()}${s.slice(1)}`;
}

/** A place name with the article it takes, if any: "o Japão", "a Grécia", "Portugal". */
interface Place {
  name: string;
  article: '' | 'o' | 'a';
}

/** "em Curitiba", "no Rio de Janeiro", "na Grécia". */
function inPlace(x: Place): string {
  return x.article === '' ? `em ${x.name}` : `${x.article === 'o' ? 'no' : 'na'} ${x.name}`;
}

/** "para Curitiba", "para o Rio de Janeiro". */
function toPlace(x: Place): string {
  return x.article === '' ? `para ${x.name}` : `para ${x.article} ${x.name}`;
}

/** "de Portugal", "do Japão", "da Grécia". */
function fromPlace(x: Place): string {
  return x.article === '' ? `de ${x.name}` : `${x.article === 'o' ? 'do' : 'da'} ${x.name}`;
}

/** "por Portugal", "pelo Japão", "pela Grécia". */
function throughPlace(x: Place): string {
  return x.article === '' ? `por ${x.name}` : `${x.article === 'o' ? 'pelo' : 'pela'} ${x.name}`;
}

const MONTHS = [
  'janeiro',
  'fevereiro',
  'março',
  'abril',
  'maio',
  'junho',
  'julho',
  'agosto',
  'setembro',
  'outubro',
  'novembro',
  'dezembro',
];

const cities: Place[] = [
  { name: 'São Paulo', article: '' },
  { name: 'Rio de Janeiro', article: 'o' },
  { name: 'Belo Horizonte', article: '' },
  { name: 'Curitiba', article: '' },
  { name: 'Porto Alegre', article: '' },
  { name: 'Salvador', article: '' },
  { name: 'Recife', article: '' },
  { name: 'Fortaleza', article: '' },
  { name: 'Florianópolis', article: '' },
  { name: 'Brasília', article: '' },
  { name: 'Manaus', article: '' },
  { name: 'Belém', article: '' },
  { name: 'Campinas', article: '' },
  { name: 'Goiânia', article: '' },
  { name: 'Lisboa', article: '' },
];

/**
 * A dish: its name as a question says it ("quem gosta de coxinha?"), with its article as a
 * memory says it, and `plural` for the verb agreeing with it ("são as coxinhas").
 */
const foods = [
  { name: 'feijoada', the: 'a feijoada', plural: false },
  { name: 'pão de queijo', the: 'o pão de queijo', plural: false },
  { name: 'moqueca de peixe', the: 'a moqueca de peixe', plural: false },
  { name: 'strogonoff de frango', the: 'o strogonoff de frango', plural: false },
  { name: 'acarajé', the: 'o acarajé', plural: false },
  { name: 'churrasco', the: 'o churrasco', plural: false },
  { name: 'coxinha', the: 'as coxinhas', plural: true },
  { name: 'escondidinho de carne seca', the: 'o escondidinho de carne seca', plural: false },
  { name: 'bobó de camarão', the: 'o bobó de camarão', plural: false },
  { name: 'arroz carreteiro', the: 'o arroz carreteiro', plural: false },
  { name: 'galinhada', the: 'a galinhada', plural: false },
  { name: 'baião de dois', the: 'o baião de dois', plural: false },
  { name: 'tapioca', the: 'a tapioca', plural: false },
  { name: 'pastel de feira', the: 'o pastel de feira', plural: false },
  { name: 'cuscuz nordestino', the: 'o cuscuz nordestino', plural: false },
];

const jobs = [
  { place: 'hospital', job: ['enfermeiro', 'enfermeira'], at: 'em um hospital' },
  { place: 'escola', job: ['professor', 'professora'], at: 'em uma escola' },
  { place: 'banco', job: ['gerente de contas', 'gerente de contas'], at: 'em um banco' },
  {
    place: 'empresa de software',
    job: ['programador', 'programadora'],
    at: 'em uma empresa de software',
  },
  { place: 'editora', job: ['revisor', 'revisora'], at: 'em uma editora' },
  {
    place: 'escritório de advocacia',
    job: ['advogado', 'advogada'],
    at: 'em um escritório de advocacia',
  },
  { place: 'restaurante', job: ['cozinheiro', 'cozinheira'], at: 'em um restaurante' },
  { place: 'farmácia', job: ['farmacêutico', 'farmacêutica'], at: 'em uma farmácia' },
  {
    place: 'escritório de arquitetura',
    job: ['arquiteto', 'arquiteta'],
    at: 'em um escritório de arquitetura',
  },
  { place: 'jornal', job: ['repórter', 'repórter'], at: 'em um jornal' },
  { place: 'creche', job: ['educador', 'educadora'], at: 'em uma creche' },
  {
    place: 'clínica veterinária',
    job: ['veterinário', 'veterinária'],
    at: 'em uma clínica veterinária',
  },
  { place: 'prefeitura', job: ['servidor público', 'servidora pública'], at: 'na prefeitura' },
  { place: 'padaria', job: ['padeiro', 'padeira'], at: 'em uma padaria' },
];

const pets = [
  { animal: 'gato', a: 'um gato', the: 'o gato', fem: false, name: 'Frajola' },
  { animal: 'cachorro', a: 'um cachorro', the: 'o cachorro', fem: false, name: 'Thor' },
  { animal: 'coelho', a: 'um coelho', the: 'o coelho', fem: false, name: 'Pipoca' },
  { animal: 'calopsita', a: 'uma calopsita', the: 'a calopsita', fem: true, name: 'Pingo' },
  { animal: 'hamster', a: 'um hamster', the: 'o hamster', fem: false, name: 'Bolinha' },
  { animal: 'jabuti', a: 'um jabuti', the: 'o jabuti', fem: false, name: 'Tião' },
  {
    animal: 'cachorro salsicha',
    a: 'um cachorro salsicha',
    the: 'o cachorro salsicha',
    fem: false,
    name: 'Linguiça',
  },
  { animal: 'gata', a: 'uma gata', the: 'a gata', fem: true, name: 'Amora' },
  {
    animal: 'porquinho-da-índia',
    a: 'um porquinho-da-índia',
    the: 'o porquinho-da-índia',
    fem: false,
    name: 'Paçoca',
  },
];

/** A pastime as what one does (an infinitive) and the question naming it. */
const hobbies = [
  { name: 'tênis', does: 'jogar tênis', who: 'Quem joga tênis?' },
  { name: 'trilha', does: 'fazer trilha', who: 'Quem gosta de fazer trilha?' },
  { name: 'pesca', does: 'pescar', who: 'Quem gosta de pescar?' },
  { name: 'violão', does: 'tocar violão', who: 'Quem toca violão?' },
  { name: 'aquarela', does: 'pintar aquarela', who: 'Quem pinta aquarela?' },
  { name: 'xadrez', does: 'jogar xadrez', who: 'Quem joga xadrez?' },
  { name: 'natação', does: 'fazer natação', who: 'Quem faz natação?' },
  { name: 'futevôlei', does: 'jogar futevôlei', who: 'Quem joga futevôlei?' },
  { name: 'fotografia', does: 'fotografar aves', who: 'Quem fotografa aves?' },
  { name: 'pão caseiro', does: 'fazer pão caseiro', who: 'Quem faz pão em casa?' },
  { name: 'yoga', does: 'fazer yoga', who: 'Quem faz yoga?' },
  { name: 'bicicleta', does: 'andar de bicicleta', who: 'Quem anda de bicicleta?' },
  { name: 'horta', does: 'cuidar da horta', who: 'Quem tem horta em casa?' },
  { name: 'escalada', does: 'fazer escalada', who: 'Quem faz escalada?' },
  { name: 'cerâmica', does: 'fazer cerâmica', who: 'Quem faz aula de cerâmica?' },
];

const allergies = [
  'amendoim',
  'camarão',
  'pelo de gato',
  'pólen',
  'castanha-de-caju',
  'ovo',
  'leite de vaca',
  'dipirona',
];

const trips: Place[] = [
  { name: 'Portugal', article: '' },
  { name: 'Chile', article: 'o' },
  { name: 'Japão', article: 'o' },
  { name: 'Islândia', article: 'a' },
  { name: 'Croácia', article: 'a' },
  { name: 'Escócia', article: 'a' },
  { name: 'Grécia', article: 'a' },
  { name: 'Marrocos', article: 'o' },
  { name: 'Canadá', article: 'o' },
  { name: 'Sicília', article: 'a' },
  { name: 'Irlanda', article: 'a' },
  { name: 'Peru', article: 'o' },
];

const relatives = [
  {
    who: 'filha',
    the: 'a filha',
    news: 'começa na escola em fevereiro e está animadíssima',
  },
  {
    who: 'filho',
    the: 'o filho',
    news: 'está cursando engenharia civil e mora numa república de estudantes',
  },
  {
    who: 'irmã',
    the: 'a irmã',
    news: 'vai se casar no mês que vem e a festa vai ser num sítio',
  },
  {
    who: 'irmão',
    the: 'o irmão',
    news: 'abriu uma cafeteria pequena na cidade onde eles cresceram',
  },
  {
    who: 'mãe',
    the: 'a mãe',
    news: 'operou o joelho no mês passado e agora está fazendo fisioterapia',
  },
  {
    who: 'pai',
    the: 'o pai',
    news: 'acabou de se aposentar e sai para caminhar todas as manhãs',
  },
  {
    who: 'avó',
    the: 'a avó',
    news: 'fez noventa anos e comemorou com a família inteira',
  },
  {
    who: 'primo',
    the: 'o primo',
    news: 'foi trabalhar na Alemanha e está aprendendo alemão',
  },
];

const drinks = [
  { name: 'chá verde', a: 'um chá verde' },
  { name: 'café preto', a: 'um café preto' },
  { name: 'chá de camomila', a: 'um chá de camomila' },
  { name: 'chimarrão', a: 'um chimarrão' },
  { name: 'café com leite', a: 'um café com leite' },
  { name: 'suco de laranja', a: 'um suco de laranja' },
  { name: 'água de coco', a: 'uma água de coco' },
  { name: 'achocolatado', a: 'um achocolatado' },
];

/** The Portuguese templates. */
export const pt: LanguageTemplates = {
  lang: 'pt',
  label: 'Portuguese',
  people,
  facts: [
    fact({
      kind: 'city',
      values: cities,
      memories: [
        (p, c) =>
          `${p.name} se mudou ${toPlace(c)} no ano passado e agora mora num apartamento antigo no centro.`,
        (p, c) => `${p.name} mora ${inPlace(c)} e vai a pé para o trabalho todo dia.`,
        (p, c) => `${p.name} sempre morou ${inPlace(c)} e só visita os pais no Natal.`,
      ],
      ask: (p) => `Onde ${p.name} está morando agora?`,
      askWho: (c) => `Quem mora ${inPlace(c)}?`,
      key: (c) => c.name,
    }),
    fact({
      kind: 'food',
      values: foods,
      memories: [
        (p, f) =>
          `Quando a gente sai para comer, ${p.name} sempre pede ${f.the}; diz que não existe nada melhor.`,
        (p, f) => `Segundo ${p.name}, ninguém faz ${f.the} como a avó ${g(p, 'dele', 'dela')}.`,
        (p, f) => `O prato preferido ${of(p)} ${f.plural ? 'são' : 'é'} ${f.the}.`,
      ],
      ask: (p) => `Qual é a comida favorita ${of(p)}?`,
      askWho: (f) => `Quem gosta de ${f.name}?`,
      key: (f) => f.name,
    }),
    fact({
      kind: 'job',
      values: jobs,
      memories: [
        (p, j) => `${p.name} trabalha como ${j.job[p.female ? 1 : 0]} ${j.at} há três anos.`,
        (p, j) =>
          `${p.name} é ${j.job[p.female ? 1 : 0]} ${j.at}; ultimamente anda fazendo muita hora extra.`,
      ],
      ask: (p) => `O que ${p.name} faz da vida?`,
      askWho: (j) => `Qual dos meus conhecidos trabalha ${j.at}?`,
      key: (j) => j.place,
    }),
    fact({
      kind: 'pet',
      values: pets,
      memories: [
        (p, v) => `${p.name} tem ${v.a} ${v.fem ? 'chamada' : 'chamado'} ${v.name}.`,
        (p, v) =>
          `${capital(v.the)} ${of(p)}, ${v.name}, ficou doente na semana passada e teve que ir ao veterinário.`,
        (p, v) =>
          `${p.name} adotou ${v.a} no mês passado e ${v.fem ? 'a' : 'o'} batizou de ${v.name}.`,
      ],
      ask: (p) => `Como se chama o bicho de estimação ${of(p)}?`,
      askWho: (v) => `Quem tem ${v.a}?`,
      key: (v) => v.animal,
    }),
    fact({
      kind: 'hobby',
      values: hobbies,
      memories: [
        (p, h) => `${p.name} começou a ${h.does} há dois anos e desde então não larga mais.`,
        (p, h) =>
          `Todo sábado de manhã ${p.name} vai ${h.does}; diz que é o que mais ${g(p, 'o', 'a')} relaxa.`,
        (p, h) => `O hobby ${of(p)} é ${h.does}, e ${pron(p)} leva isso muito a sério.`,
      ],
      ask: (p) => `O que ${p.name} gosta de fazer no tempo livre?`,
      askWho: (h) => h.who,
      key: (h) => h.name,
    }),
    fact({
      kind: 'birthday',
      values: DAYS,
      memories: [
        (p, d) =>
          `${p.name} faz aniversário no dia ${d.day === 1 ? '1º' : d.day} de ${MONTHS[d.month - 1]} e adora ganhar livros de presente.`,
        (p, d) =>
          `Dia ${d.day === 1 ? '1º' : d.day} de ${MONTHS[d.month - 1]} é o aniversário ${of(p)}: encomendar o bolo com antecedência!`,
      ],
      ask: (p) => `Quando é o aniversário ${of(p)}?`,
    }),
    fact({
      kind: 'allergy',
      values: allergies,
      memories: [
        (p, a) =>
          `${p.name} é ${g(p, 'alérgico', 'alérgica')} a ${a}; lembrar disso quando ${pron(p)} vier jantar aqui em casa.`,
        (p, a) => `O médico confirmou que ${p.name} tem uma alergia forte a ${a}.`,
      ],
      ask: (p) => `${p.name} é ${g(p, 'alérgico', 'alérgica')} a quê?`,
      askWho: (a) => `Quem tem alergia a ${a}?`,
    }),
    fact({
      kind: 'trip',
      values: trips,
      memories: [
        (p, t) => `${p.name} vai viajar ${toPlace(t)} nas férias; as passagens já estão compradas.`,
        (p, t) => `${p.name} está viajando ${throughPlace(t)} e manda fotos todo dia.`,
        (p, t) => `${p.name} acabou de voltar ${fromPlace(t)} e trouxe centenas de fotos.`,
      ],
      ask: (p) => `Qual é o destino da viagem ${of(p)}?`,
      askWho: (t) => `Quem vai viajar ${toPlace(t)}?`,
      key: (t) => t.name,
    }),
    fact({
      kind: 'family',
      values: relatives,
      memories: [
        (p, r) => `${capital(r.the)} ${of(p)} ${r.news}.`,
        (p, r) => `Novidades ${of(p)}: ${r.the} ${g(p, 'dele', 'dela')} ${r.news}.`,
      ],
      ask: (p, r) => `Como está ${r.the} ${of(p)}?`,
    }),
    fact({
      kind: 'drink',
      values: drinks,
      memories: [
        (p, d) => `${p.name} toma ${d.a} assim que acorda; sem isso não funciona.`,
        (p, d) => `${p.name} chega a toda reunião com ${d.a} na mão.`,
      ],
      ask: (p) => `O que ${p.name} toma de manhã?`,
      askWho: (d) => `Quem costuma tomar ${d.name}?`,
      key: (d) => d.name,
    }),
  ],
  events: [
    (a, b) =>
      `Sexta à noite jantei com ${a.name} e ${b.name} no italiano e a conversa foi até tarde.`,
    (a, b) => `${a.name} e ${b.name} foram ${together(a, b)} a um show no mês passado.`,
    (a, b) => `${a.name} me apresentou ${the(b)}, que também está procurando apartamento.`,
    (a, b) => `Na quarta que vem marquei com ${a.name} e ${b.name} no café para falar do projeto.`,
    (a, b) => `No casamento ${of(a)} reencontrei ${b.name} depois de muitos anos.`,
    (a, b) =>
      `${a.name} emprestou um romance para ${b.name}, que vai devolver quando terminar de ler.`,
    (a, b) => `Falando no telefone com ${a.name}, fiquei sabendo que ${b.name} mudou de emprego.`,
    (a, b) => `${a.name} e ${b.name} organizaram um fim de semana de acampamento; éramos oito.`,
    (a, b) => `No Réveillon, ${a.name} e ${b.name} vieram comemorar aqui em casa.`,
    (a, b) => `${a.name} ajudou ${b.name} na mudança e depois passou dois dias com dor nas costas.`,
    (a, b) =>
      `${a.name} e ${b.name} se inscreveram ${together(a, b)} no torneio de vôlei da empresa.`,
    (a, b) =>
      `Encontrei ${a.name} no metrô; ${pron(a)} estava voltando de um almoço com ${b.name}.`,
  ],
  notes: [
    'Amanhã às 15h, reunião com o cliente: não esquecer o contrato.',
    'Pagar o aluguel deste mês até o dia 5.',
    'Sábado de manhã tem vacina das crianças; agendar antes pelo aplicativo do posto de saúde.',
    'O carro precisa fazer a revisão; a oficina tem horário na terça que vem.',
    'Apareceu na fatura do cartão uma compra que eu não reconheço: ligar para o banco.',
    'A máquina de lavar está vazando; o técnico vem na quinta.',
    'O passaporte vence em março, agendar a renovação na Polícia Federal com antecedência.',
    'A confraternização de fim de ano da empresa é no dia 19 de dezembro, no salão do hotel.',
    'Abriu uma padaria nova perto da estação e o pão integral de lá é ótimo.',
    'Os tomates da varanda já estão ficando vermelhos; basta regar dia sim, dia não.',
    'O relatório trimestral tem que ser entregue na semana que vem e ainda faltam os números de vendas.',
    'A tela do celular trincou; o conserto sai por uns 400 reais.',
    'Até o fim do ano quero arrumar a estante do escritório e doar os livros que sobrarem.',
    'Ainda tenho seis aulas no pacote de pilates.',
    'O leite da geladeira vence depois de amanhã; usar no café da manhã.',
    'A conta de luz veio bem mais alta que no mês passado, deve ser o ar-condicionado.',
    'Neste fim de semana quero ver o novo filme de ficção científica; comprar os ingressos antes.',
    'O encontro da turma da faculdade foi adiado para o primeiro sábado do mês que vem.',
    'O sofá que comprei pela internet só chega daqui a quatro semanas.',
    'A impressora do escritório travou de novo; já avisei o pessoal da TI.',
    'Ligar para o vovô para perguntar como anda a pressão dele.',
    'O código para retirar a encomenda no armário inteligente está no SMS da semana passada.',
    'Quero aprender a cozinhar; vou começar pelo arroz com feijão.',
    'Ainda tenho cinco dias de férias; vou guardar para o feriado de novembro.',
    'Os vizinhos do térreo têm uma cópia da chave de casa.',
    'No ano que vem quero tirar a carteira de motorista; comparar os preços das autoescolas.',
    'A partir do mês que vem, o metrô vai funcionar até mais tarde nos fins de semana.',
    'Ler vinte páginas toda noite antes de dormir, sem desistir.',
    'No check-up o médico mandou diminuir o sal e fazer mais exercício.',
    'O seguro do carro vence em junho: pesquisar outras seguradoras antes de renovar.',
    'Entregar a declaração do imposto de renda dentro do prazo; separar os recibos médicos.',
  ],
};
