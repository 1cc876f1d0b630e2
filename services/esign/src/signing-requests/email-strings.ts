/**
 * The two signee emails' text in every language a request may have (`locale`): Spanish by
 * default, English, and Catalan, Galician and Basque. Values are interpolated as text; the
 * HTML part escapes them.
 */
import { PAGE_LOCALES, type PageLocale } from '../html/page-shell';

/** The signee's languages: those of the public pages. */
export const SIGNEE_LOCALES = PAGE_LOCALES;
export type SigneeLocale = PageLocale;

export interface EmailStrings {
  greeting: (name: string | null) => string;
  linkIntro: (sender: string, title: string) => string;
  linkAction: string;
  linkExpiry: (date: string) => string;
  linkNote: string;
  messageLabel: string;
  linkSubject: (title: string) => string;
  otpIntro: (title: string) => string;
  otpValidity: (minutes: number) => string;
  otpNote: string;
  otpSubject: string;
  completionSubject: (title: string) => string;
  completionIntro: (title: string) => string;
  completionAttached: string;
  completionLink: (date: string) => string;
  cancelSubject: (title: string) => string;
  cancelByDecline: (title: string) => string;
  cancelByVoid: (sender: string, title: string) => string;
  cancelByExpiry: (title: string) => string;
  reminderPrefix: string;
  expiryWarningPrefix: string;
}

export const EMAIL_TEXT: Record<SigneeLocale, EmailStrings> = {
  es: {
    greeting: (name) => (name ? `Hola, ${name}:` : 'Hola:'),
    linkIntro: (sender, title) => `${sender} le pide que firme electrónicamente el documento «${title}».`,
    linkAction: 'Revise y firme el documento en este enlace:',
    linkExpiry: (date) => `El enlace caduca el ${date}.`,
    linkNote: 'Si no esperaba este mensaje, ignórelo. No comparta este enlace: es personal.',
    messageLabel: 'Mensaje del remitente:',
    linkSubject: (title) => `Documento para firmar: ${title}`,
    otpIntro: (title) => `Su código para firmar «${title}» es:`,
    otpValidity: (minutes) => `Caduca en ${minutes} minutos y solo sirve una vez.`,
    otpNote: 'Si no ha pedido este código, ignore este mensaje.',
    otpSubject: 'Su código de firma',
    completionSubject: (title) => `Documento firmado: ${title}`,
    completionIntro: (title) => `Todas las partes han firmado «${title}». Esta es la copia final, sellada, con su certificado de auditoría.`,
    completionAttached: 'Va adjunta a este mensaje.',
    completionLink: (date) => `Descárguela en este enlace (válido hasta el ${date}):`,
    cancelSubject: (title) => `Solicitud de firma cancelada: ${title}`,
    cancelByDecline: (title) => `Otra persona ha rechazado firmar «${title}». Su solicitud de firma queda cancelada y el enlace ya no es válido.`,
    cancelByVoid: (sender, title) => `${sender} ha retirado la solicitud de firma de «${title}». El enlace ya no es válido.`,
    cancelByExpiry: (title) => `Una firma anterior de «${title}» no se hizo a tiempo y su solicitud ha caducado, así que su turno ya no llegará. Su solicitud queda cancelada y el enlace ya no es válido.`,
    reminderPrefix: 'Recordatorio',
    expiryWarningPrefix: 'Su enlace caduca pronto',
  },
  en: {
    greeting: (name) => (name ? `Hello ${name},` : 'Hello,'),
    linkIntro: (sender, title) => `${sender} asks you to sign the document "${title}" electronically.`,
    linkAction: 'Review and sign the document at this link:',
    linkExpiry: (date) => `The link expires on ${date}.`,
    linkNote: 'If you did not expect this message, ignore it. Do not share this link: it is personal.',
    messageLabel: 'Message from the sender:',
    linkSubject: (title) => `Document to sign: ${title}`,
    otpIntro: (title) => `Your code to sign "${title}" is:`,
    otpValidity: (minutes) => `It expires in ${minutes} minutes and works once.`,
    otpNote: 'If you did not ask for this code, ignore this message.',
    otpSubject: 'Your signing code',
    completionSubject: (title) => `Document signed: ${title}`,
    completionIntro: (title) => `Every party has signed "${title}". This is the final, sealed copy with its audit certificate.`,
    completionAttached: 'It is attached to this message.',
    completionLink: (date) => `Download it from this link (valid until ${date}):`,
    cancelSubject: (title) => `Signing request cancelled: ${title}`,
    cancelByDecline: (title) => `Another signee declined to sign "${title}". Your signing request is cancelled and its link no longer works.`,
    cancelByVoid: (sender, title) => `${sender} withdrew the signing request for "${title}". The link no longer works.`,
    cancelByExpiry: (title) => `An earlier signature of "${title}" was not given in time and its request expired, so your turn will not come. Your signing request is cancelled and its link no longer works.`,
    reminderPrefix: 'Reminder',
    expiryWarningPrefix: 'Your link expires soon',
  },
  ca: {
    greeting: (name) => (name ? `Hola, ${name}:` : 'Hola:'),
    linkIntro: (sender, title) => `${sender} us demana que signeu electrònicament el document «${title}».`,
    linkAction: 'Reviseu i signeu el document en aquest enllaç:',
    linkExpiry: (date) => `L'enllaç caduca el dia ${date}.`,
    linkNote: "Si no esperàveu aquest missatge, ignoreu-lo. No compartiu aquest enllaç: és personal.",
    messageLabel: 'Missatge del remitent:',
    linkSubject: (title) => `Document per signar: ${title}`,
    otpIntro: (title) => `El vostre codi per signar «${title}» és:`,
    otpValidity: (minutes) => `Caduca d'aquí a ${minutes} minuts i només es pot fer servir una vegada.`,
    otpNote: "Si no heu demanat aquest codi, ignoreu aquest missatge.",
    otpSubject: 'El vostre codi de signatura',
    completionSubject: (title) => `Document signat: ${title}`,
    completionIntro: (title) => `Totes les parts han signat «${title}». Aquesta és la còpia final, segellada, amb el seu certificat d'auditoria.`,
    completionAttached: 'Va adjunta a aquest missatge.',
    completionLink: (date) => `Descarregueu-la en aquest enllaç (vàlid fins al ${date}):`,
    cancelSubject: (title) => `Sol·licitud de signatura cancel·lada: ${title}`,
    cancelByDecline: (title) => `Una altra persona ha rebutjat signar «${title}». La vostra sol·licitud queda cancel·lada i l'enllaç ja no és vàlid.`,
    cancelByVoid: (sender, title) => `${sender} ha retirat la sol·licitud de signatura de «${title}». L'enllaç ja no és vàlid.`,
    cancelByExpiry: (title) => `Una signatura anterior de «${title}» no es va fer a temps i la seva sol·licitud ha caducat, així que el vostre torn ja no arribarà. La vostra sol·licitud queda cancel·lada i l'enllaç ja no és vàlid.`,
    reminderPrefix: 'Recordatori',
    expiryWarningPrefix: 'El vostre enllaç caduca aviat',
  },
  gl: {
    greeting: (name) => (name ? `Ola, ${name}:` : 'Ola:'),
    linkIntro: (sender, title) => `${sender} pídelle que asine electronicamente o documento «${title}».`,
    linkAction: 'Revise e asine o documento nesta ligazón:',
    linkExpiry: (date) => `A ligazón caduca o ${date}.`,
    linkNote: 'Se non esperaba esta mensaxe, ignórea. Non comparta esta ligazón: é persoal.',
    messageLabel: 'Mensaxe do remitente:',
    linkSubject: (title) => `Documento para asinar: ${title}`,
    otpIntro: (title) => `O seu código para asinar «${title}» é:`,
    otpValidity: (minutes) => `Caduca en ${minutes} minutos e só serve unha vez.`,
    otpNote: 'Se non pediu este código, ignore esta mensaxe.',
    otpSubject: 'O seu código de sinatura',
    completionSubject: (title) => `Documento asinado: ${title}`,
    completionIntro: (title) => `Todas as partes asinaron «${title}». Esta é a copia final, selada, co seu certificado de auditoría.`,
    completionAttached: 'Vai anexa a esta mensaxe.',
    completionLink: (date) => `Descárguea nesta ligazón (válida ata o ${date}):`,
    cancelSubject: (title) => `Solicitude de sinatura cancelada: ${title}`,
    cancelByDecline: (title) => `Outra persoa rexeitou asinar «${title}». A súa solicitude queda cancelada e a ligazón xa non é válida.`,
    cancelByVoid: (sender, title) => `${sender} retirou a solicitude de sinatura de «${title}». A ligazón xa non é válida.`,
    cancelByExpiry: (title) => `Unha sinatura anterior de «${title}» non se fixo a tempo e a súa solicitude caducou, así que a súa quenda xa non chegará. A súa solicitude queda cancelada e a ligazón xa non é válida.`,
    reminderPrefix: 'Recordatorio',
    expiryWarningPrefix: 'A súa ligazón caduca pronto',
  },
  eu: {
    greeting: (name) => (name ? `Kaixo, ${name}:` : 'Kaixo:'),
    linkIntro: (sender, title) => `«${title}» dokumentua elektronikoki sinatzeko eskaera bat duzu. Igorlea: ${sender}.`,
    linkAction: 'Berrikusi eta sinatu dokumentua esteka honetan:',
    linkExpiry: (date) => `Esteka data honetan iraungiko da: ${date}.`,
    linkNote: 'Mezu hau espero ez bazenuen, ez egin kasurik. Ez partekatu esteka hau: pertsonala da.',
    messageLabel: 'Igorlearen mezua:',
    linkSubject: (title) => `Sinatzeko dokumentua: ${title}`,
    otpIntro: (title) => `«${title}» sinatzeko zure kodea hau da:`,
    otpValidity: (minutes) => `${minutes} minututan iraungiko da, eta behin bakarrik balio du.`,
    otpNote: 'Kode hau eskatu ez baduzu, ez egin kasurik mezu honi.',
    otpSubject: 'Zure sinadura-kodea',
    completionSubject: (title) => `Dokumentua sinatuta: ${title}`,
    completionIntro: (title) => `Alderdi guztiek sinatu dute «${title}». Hau da azken kopia, zigilatua, bere auditoria-ziurtagiriarekin.`,
    completionAttached: 'Mezu honi erantsita doa.',
    completionLink: (date) => `Deskargatu esteka honetan (${date} arte balio du):`,
    cancelSubject: (title) => `Sinadura-eskaera bertan behera: ${title}`,
    cancelByDecline: (title) => `Beste pertsona batek «${title}» sinatzeari uko egin dio. Zure eskaera bertan behera geratu da eta esteka ez da baliozkoa jada.`,
    cancelByVoid: (sender, title) => `${sender}(e)k «${title}» dokumentuaren sinadura-eskaera kendu du. Esteka ez da baliozkoa jada.`,
    cancelByExpiry: (title) => `«${title}» dokumentuaren aurreko sinadura bat ez da garaiz egin eta haren eskaera iraungi da; beraz, zure txanda ez da iritsiko. Zure eskaera bertan behera geratu da eta esteka ez da baliozkoa jada.`,
    reminderPrefix: 'Oroigarria',
    expiryWarningPrefix: 'Zure esteka laster iraungiko da',
  },
};
