// Names and labels that listings show (the console, the CLI, the metadata): characters that make one
// name display as another (bidirectional controls, Trojan Source, CVE-2021-42574) or that show as
// nothing are refused in them (docs/api.md § Names and labels). Record values are not checked here.

/** The refused characters that are not C0/C1 controls, by code point, with their Unicode names. */
const NAMED: ReadonlyMap<number, string> = new Map([
  [0x061c, 'ARABIC LETTER MARK'], [0x200e, 'LEFT-TO-RIGHT MARK'], [0x200f, 'RIGHT-TO-LEFT MARK'],
  [0x202a, 'LEFT-TO-RIGHT EMBEDDING'], [0x202b, 'RIGHT-TO-LEFT EMBEDDING'], [0x202c, 'POP DIRECTIONAL FORMATTING'],
  [0x202d, 'LEFT-TO-RIGHT OVERRIDE'], [0x202e, 'RIGHT-TO-LEFT OVERRIDE'],
  [0x2066, 'LEFT-TO-RIGHT ISOLATE'], [0x2067, 'RIGHT-TO-LEFT ISOLATE'], [0x2068, 'FIRST STRONG ISOLATE'], [0x2069, 'POP DIRECTIONAL ISOLATE'],
  [0x200b, 'ZERO WIDTH SPACE'], [0x2060, 'WORD JOINER'], [0x2061, 'FUNCTION APPLICATION'], [0x2062, 'INVISIBLE TIMES'],
  [0x2063, 'INVISIBLE SEPARATOR'], [0x2064, 'INVISIBLE PLUS'], [0xfeff, 'ZERO WIDTH NO-BREAK SPACE'],
]);

const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
const REFUSED = /[\p{Cc}\u061C\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/u;

const hex = (c: number) => `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Why `s` cannot be a name or label, or undefined when it can: it holds a control character, a
 * bidirectional control or mark, or an invisible character. Letters of any script (Hebrew, Arabic…)
 * and the joiners some scripts and emoji need (U+200C, U+200D) are fine.
 */
export function undisplayableName(s: string): string | undefined {
  const found = REFUSED.exec(s);
  if (!found) return undefined;
  const c = found[0].codePointAt(0)!;
  const name = NAMED.get(c);
  const what = name === undefined ? `the control character ${hex(c)}`
    : BIDI.test(found[0]) ? `${hex(c)} ${name}, a bidirectional control that can make a name display as another,`
      : `${hex(c)} ${name}, which shows as nothing,`;
  return `it contains ${what} at position ${found.index}. Remove it: names and labels take visible text only (right-to-left text such as Hebrew needs no control characters).`;
}
