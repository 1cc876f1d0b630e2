import type { SigneeLocale } from '../signing-requests/email-strings';

/** What the signing page says about a request's fields, in the five languages of the page. */
export interface FieldText {
  signature: string;
  initials: string;
  date: string;
  name: string;
  /** "Iniciales, página 3 de 5": an outline's accessible name. */
  onPage: (what: string, n: number, total: number) => string;
  title: string;
  help: string;
  required: string;
  initialsLabel: string;
  initialsHelp: string;
  /** The initials pad (JavaScript only): its accessible name, its help and its clear button. */
  initialsPad: string;
  initialsPadHelp: string;
  initialsClear: string;
  errors: Record<'field_required' | 'field_invalid', string>;
}

export const FIELD_TEXT: Record<SigneeLocale, FieldText> = {
  es: {
    signature: 'Firma aquí',
    initials: 'Iniciales',
    date: 'Fecha (se rellena sola)',
    name: 'Nombre (se rellena solo)',
    onPage: (what, n, total) => `${what}, página ${n} de ${total}`,
    title: 'Datos que pide el documento',
    help: 'Se escriben en su lugar del documento al firmar. La firma, las iniciales, la fecha y el nombre se ponen solos.',
    required: '(obligatorio)',
    initialsLabel: 'Sus iniciales',
    initialsHelp: 'Se ponen en cada casilla de iniciales. Si lo deja vacío, se usan las de su nombre.',
    initialsPad: 'Área para dibujar las iniciales',
    initialsPadHelp: 'Dibuje sus iniciales una vez: se ponen en cada casilla de iniciales. Si no las dibuja, se usan las que escriba debajo.',
    initialsClear: 'Borrar las iniciales',
    errors: { field_required: 'Rellene los datos obligatorios del documento.', field_invalid: 'Uno de los datos del documento no tiene la forma esperada.' },
  },
  en: {
    signature: 'Sign here',
    initials: 'Initials',
    date: 'Date (filled in for you)',
    name: 'Name (filled in for you)',
    onPage: (what, n, total) => `${what}, page ${n} of ${total}`,
    title: 'Details the document asks for',
    help: 'They are written in their place in the document when you sign. Your signature, initials, the date and your name are filled in for you.',
    required: '(required)',
    initialsLabel: 'Your initials',
    initialsHelp: 'Set in every initials box. Left empty, the initials of your name are used.',
    initialsPad: 'Area to draw your initials',
    initialsPadHelp: 'Draw your initials once: they are set in every initials box. If you draw none, the ones you type below are used.',
    initialsClear: 'Clear the initials',
    errors: { field_required: 'Fill in the required details of the document.', field_invalid: 'One of the details of the document is not in the expected form.' },
  },
  ca: {
    signature: 'Signeu aquí',
    initials: 'Inicials',
    date: 'Data (s\'omple sola)',
    name: 'Nom (s\'omple sol)',
    onPage: (what, n, total) => `${what}, pàgina ${n} de ${total}`,
    title: 'Dades que demana el document',
    help: 'S\'escriuen al seu lloc del document en signar. La signatura, les inicials, la data i el nom es posen sols.',
    required: '(obligatori)',
    initialsLabel: 'Les vostres inicials',
    initialsHelp: 'Es posen a cada casella d\'inicials. Si ho deixeu buit, s\'usen les del vostre nom.',
    initialsPad: 'Àrea per dibuixar les vostres inicials',
    initialsPadHelp: 'Dibuixeu les inicials un cop: es posen a cada casella d\'inicials. Si no les dibuixeu, s\'usen les que escriviu a sota.',
    initialsClear: 'Esborrar les inicials',
    errors: { field_required: 'Empleneu les dades obligatòries del document.', field_invalid: 'Una de les dades del document no té la forma esperada.' },
  },
  gl: {
    signature: 'Asine aquí',
    initials: 'Iniciais',
    date: 'Data (énchese soa)',
    name: 'Nome (énchese só)',
    onPage: (what, n, total) => `${what}, páxina ${n} de ${total}`,
    title: 'Datos que pide o documento',
    help: 'Escríbense no seu lugar do documento ao asinar. A sinatura, as iniciais, a data e o nome póñense sós.',
    required: '(obrigatorio)',
    initialsLabel: 'As súas iniciais',
    initialsHelp: 'Póñense en cada caixa de iniciais. Se o deixa baleiro, úsanse as do seu nome.',
    initialsPad: 'Área para debuxar as súas iniciais',
    initialsPadHelp: 'Debuxe as súas iniciais unha vez: póñense en cada caixa de iniciais. Se non as debuxa, úsanse as que escriba debaixo.',
    initialsClear: 'Borrar as iniciais',
    errors: { field_required: 'Encha os datos obrigatorios do documento.', field_invalid: 'Un dos datos do documento non ten a forma esperada.' },
  },
  eu: {
    signature: 'Sinatu hemen',
    initials: 'Inizialak',
    date: 'Data (berez betetzen da)',
    name: 'Izena (berez betetzen da)',
    onPage: (what, n, total) => `${what}, ${n}. orrialdea (guztira ${total})`,
    title: 'Dokumentuak eskatzen dituen datuak',
    help: 'Sinatzean dokumentuan dagokien lekuan idazten dira. Sinadura, inizialak, data eta izena berez jartzen dira.',
    required: '(derrigorrezkoa)',
    initialsLabel: 'Zure inizialak',
    initialsHelp: 'Inizialen lauki guztietan jartzen dira. Hutsik utziz gero, zure izenaren inizialak erabiltzen dira.',
    initialsPad: 'Zure inizialak marrazteko eremua',
    initialsPadHelp: 'Marraztu zure inizialak behin: inizialen lauki guztietan jartzen dira. Marrazten ez badituzu, behean idazten dituzunak erabiltzen dira.',
    initialsClear: 'Ezabatu inizialak',
    errors: { field_required: 'Bete dokumentuaren derrigorrezko datuak.', field_invalid: 'Dokumentuaren datuetako batek ez du espero zen forma.' },
  },
};
