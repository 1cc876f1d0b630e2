import { splitPatterns } from './redact-patterns';

describe('splitPatterns (the redact `patterns` field, interface §4.3)', () => {
  it.each([
    ['one expression', 'DNI', ['DNI']],
    ['comma-separated', 'a,b', ['a', 'b']],
    ['comma-separated with spaces', 'secreto, confidencial ,IBAN', ['secreto', 'confidencial', 'IBAN']],
    ['a {m,n} quantifier keeps its comma', '\\d{2,4}-X,Y', ['\\d{2,4}-X', 'Y']],
    ['a {n,} quantifier keeps its comma', 'a{3,},b', ['a{3,}', 'b']],
    ['a character class keeps its comma', '[,;]x,y', ['[,;]x', 'y']],
    ['a ] first in a class is a member', '[],]z,w', ['[],]z', 'w']],
    ['an escaped comma stays', 'uno\\,dos,tres', ['uno\\,dos', 'tres']],
    ['a literal { that is not a quantifier splits', 'a{x,y}', ['a{x', 'y}']],
    ['empty entries are ignored', ',a,,b,', ['a', 'b']],
    ['newlines win over commas', 'a,b\nc{1,2}\r\n\n d ', ['a,b', 'c{1,2}', 'd']],
    ['only separators gives nothing', ' , ,', []],
  ])('%s', (_name, field, expected) => {
    expect(splitPatterns(field)).toEqual(expected);
  });

  it('gives expressions JavaScript accepts, matching what the user meant', () => {
    const [dni, iban] = splitPatterns('\\d{8}[A-Z],ES\\d{2}( ?\\d{4}){5}');
    expect(new RegExp(dni!).test('12345678Z')).toBe(true);
    expect(new RegExp(iban!).test('ES91 2100 0418 4502 0005 1332')).toBe(true);
  });
});
