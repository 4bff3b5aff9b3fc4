/**
 * The letters beyond ASCII that each language writes (lower case). Which code page is right shows in
 * whether the letters it gives belong together: Estonian 'õšž' in windows-1257 is 'õðþ' in
 * windows-1252, which no language writes. Used to choose the code page of a legacy text file
 * (txt/txt-encoding.ts) and to recognise text in one code page read in another (mojibake.ts).
 */
export const LANGUAGE_ALPHABETS: readonly string[] = [
  'àâæçéèêëîïôœùûüÿ', // fr
  'äöüß', // de
  'áéíñóúü', // es
  'áâãàçéêíóôõú', // pt
  'àèéìòóù', // it
  'áéèëïóöü', // nl
  'àçèéíïòóúü', // ca
  'æøåé', // da, no
  'åäöé', // sv
  'äöåšž', // fi
  'áéíóúýþæöð', // is
  'äöüõšž', // et
  'āčēģīķļņšūž', // lv
  'ąčęėįšųūž', // lt
  'ąćęłńóśźż', // pl
  'áčďéěíňóřšťúůýž', // cs
  'áäčďéíĺľňóôŕšťúýž', // sk
  'čćđšž', // hr, sl, bs
  'áéíóöőúüű', // hu
  'ăâîșțşţ', // ro
  'çğıöşüâîû', // tr
  'çë', // sq
  'áéíóú', // ga
  'ĉĝĥĵŝŭ', // eo
  'àáâãèéêìíòóôõùúýăđĩũơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ', // vi
  'абвгдеёжзийклмнопрстуфхцчшщъыьэюя', // ru
  'абвгґдеєжзиіїйклмнопрстуфхцчшщьюя', // uk
  'абвгдеёжзійклмнопрстуўфхцчшыьэюя', // be
  'абвгдђежзијклљмнњопрстћуфхцчџш', // sr
  'абвгдѓежзѕијклљмнњопрстќуфхцчџш', // mk
  'абвгдеёжзийклмнопрстуфхцчшщъыьэюяіңғүұқөһә', // kk
  'абвгдеёжзийклмнопрстуфхцчшъэюяўқғҳ', // uz
  'αβγδεζηθικλμνξοπρστυφχψωάέήίόύώϊϋΐΰς', // el
  rangeOf(0x5b0, 0x5ea), // he: points and letters
  rangeOf(0x621, 0x652) + 'پچژگکیۀٹڈڑںےھ', // ar, fa, ur
  rangeOf(0xe01, 0xe5b), // th
];

function rangeOf(from: number, to: number): string {
  let out = '';
  for (let c = from; c <= to; c++) out += String.fromCharCode(c);
  return out;
}
