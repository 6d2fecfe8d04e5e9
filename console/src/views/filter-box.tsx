// The filter box of a record table: text in the query language of /api/query (docs/query.md), with
// suggestions for what may come next where the caret is (field names, operators, AND/OR), and the
// server's error shown at its position. A combobox in the ARIA sense: arrows choose, Enter or Tab take.

import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError, type Field } from '../api.js';

const OPERATORS = ['=', '!=', '<', '>', '<=', '>=', 'start-with', 'not-start-with', 'end-with', 'not-end-with', 'is-null', 'is-not-null'];
const JOINS = ['AND', 'OR'];

interface Token {
  readonly text: string;
  readonly start: number;
}

/** Words, quoted values and parentheses before `end`, as the query lexer splits them (roughly: enough to know what comes next). */
function tokensBefore(text: string, end: number): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < end) {
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === '(' || ch === ')') {
      out.push({ text: ch, start: i });
      i++;
    } else if (ch === "'" || ch === '"') {
      const start = i;
      i++;
      while (i < end && !(text[i] === ch && text[i + 1] !== ch)) i += text[i] === ch ? 2 : 1;
      i++;
      out.push({ text: text.slice(start, Math.min(i, end)), start });
    } else {
      const start = i;
      while (i < end && !/[\s()]/.test(text[i]!)) i++;
      out.push({ text: text.slice(start, i), start });
    }
  }
  return out;
}

type Expect = 'field' | 'operator' | 'value' | 'join';

/** What the grammar expects at the caret, and the word being typed there. */
function expectation(text: string, caret: number): { expect: Expect; word: Token } {
  const tokens = tokensBefore(text, caret);
  const typing = caret > 0 && !/[\s()]/.test(text[caret - 1]!) ? tokens.pop()! : { text: '', start: caret };
  let expect: Expect = 'field';
  for (const t of tokens) {
    const upper = t.text.toUpperCase();
    if (t.text === '(' || upper === 'AND' || upper === 'OR') expect = 'field';
    else if (t.text === ')') expect = 'join';
    else if (expect === 'field') expect = 'operator';
    else if (expect === 'operator') expect = /^is-(not-)?null$/i.test(t.text) ? 'join' : 'value';
    else if (expect === 'value') expect = 'join';
  }
  return { expect, word: typing };
}

export function FilterBox({ fields, value, onSubmit, error }: { fields: Field[]; value: string; onSubmit: (text: string) => void; error: unknown }) {
  const [text, setText] = useState(value);
  const [caret, setCaret] = useState(value.length);
  const [active, setActive] = useState(-1);
  const [open, setOpen] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  /** Where the caret goes once a taken suggestion is drawn (before any later key reaches the input). */
  const caretAfterTake = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (caretAfterTake.current === null) return;
    input.current?.setSelectionRange(caretAfterTake.current, caretAfterTake.current);
    caretAfterTake.current = null;
  });

  const { word, choices } = useMemo(() => {
    const { expect, word } = expectation(text, caret);
    const prefix = word.text.toLowerCase();
    let pool: string[] = [];
    if (expect === 'field') pool = fields.map((f) => f.name);
    else if (expect === 'operator') pool = OPERATORS;
    else if (expect === 'join') pool = JOINS;
    const choices = pool.filter((c) => c.toLowerCase().startsWith(prefix) && c.toLowerCase() !== prefix).slice(0, 8);
    return { word, choices };
  }, [text, caret, fields]);
  const showing = open && choices.length > 0;
  const labelOf = (name: string) => fields.find((f) => f.name === name)?.label;

  const take = (choice: string) => {
    const next = `${text.slice(0, word.start)}${choice} ${text.slice(caret).replace(/^\s+/, '')}`;
    const at = word.start + choice.length + 1;
    setText(next);
    setCaret(at);
    setActive(-1);
    caretAfterTake.current = at;
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (!showing) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const n = choices.length;
      setActive((a) => (e.key === 'ArrowDown' ? (a + 1) % n : (a - 1 + n) % n));
    } else if ((e.key === 'Enter' || e.key === 'Tab') && active >= 0) {
      e.preventDefault();
      take(choices[active]!);
    } else if (e.key === 'Escape') {
      setOpen(false);
      setActive(-1);
    }
  };

  const position = error instanceof ApiError ? errorPosition(error, value) : null;
  const errorId = 'filter-error';

  return (
    <form class="filter" role="search" onSubmit={(e) => { e.preventDefault(); setOpen(false); onSubmit(text.trim()); }}>
      <label for="filter-input" class="sr-only">Filter</label>
      <div class="combo">
        <input
          id="filter-input" ref={input} type="text" value={text} spellcheck={false} autoComplete="off"
          placeholder="Filter, e.g. accountname start-with 'a' AND createdon >= '2026-01-01'"
          role="combobox" aria-autocomplete="list" aria-expanded={showing} aria-controls="filter-suggestions"
          aria-activedescendant={showing && active >= 0 ? `filter-choice-${active}` : undefined}
          aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined}
          onInput={(e) => { const t = e.target as HTMLInputElement; setText(t.value); setCaret(t.selectionStart ?? t.value.length); setOpen(true); setActive(-1); }}
          onKeyUp={(e) => { const t = e.target as HTMLInputElement; setCaret(t.selectionStart ?? t.value.length); }}
          onClick={(e) => { const t = e.target as HTMLInputElement; setCaret(t.selectionStart ?? t.value.length); }}
          onFocus={() => setOpen(true)}
          onBlur={() => setTimeout(() => setOpen(false), 150)}
          onKeyDown={onKeyDown}
        />
        {showing && (
          <ul id="filter-suggestions" role="listbox" class="suggestions" aria-label="Suggestions">
            {choices.map((c, i) => (
              <li
                key={c} id={`filter-choice-${i}`} role="option" aria-selected={i === active}
                class={i === active ? 'active' : undefined}
                onMouseDown={(e) => { e.preventDefault(); take(c); }}
              >
                <code>{c}</code>{labelOf(c) && <span class="muted"> {labelOf(c)}</span>}
              </li>
            ))}
          </ul>
        )}
      </div>
      <button type="submit">Filter</button>
      {value && <button type="button" onClick={() => { setText(''); onSubmit(''); }}>Clear</button>}
      {error && (
        <div id={errorId} class="error filter-error" role="alert">
          {position !== null && (
            <pre class="caret" aria-hidden="true">{value}{'\n'}<span class="caret-pad">{value.slice(0, Math.max(0, position - 1))}</span>^</pre>
          )}
          <span>{error instanceof ApiError && <code class="code">{error.code}</code>} {error instanceof Error ? error.message : String(error)}</span>
        </div>
      )}
    </form>
  );
}

/** Where in the filter an error points (1-based): a syntax error's position, or an unknown field's first use. */
function errorPosition(error: ApiError, text: string): number | null {
  const position = error.position;
  if (position !== null) return position;
  const field = /Invalid field name: '([^']+)'/.exec(error.message)?.[1];
  if (field) {
    const at = text.toLowerCase().indexOf(field.toLowerCase());
    if (at >= 0) return at + 1;
  }
  return null;
}
