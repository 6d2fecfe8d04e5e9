// Exact decimal arithmetic on doubles taken as their decimal text (the shortest that reads back as
// the double: what JavaScript's String and PostgreSQL's float8 output print), for what must not
// depend on binary rounding: a number rounded to a field's precision on write (values.ts roundTo),
// and SUM of a grouped query, the same on every store: the exact sum, rounded to the field's
// precision with halves away from zero, as the nearest double, or null past the largest double.
// Adding doubles instead gives last digits that depend on the order of rows and on the store's
// algorithm (SQLite compensates, PostgreSQL does not). SQLite runs the sum as an aggregate
// (sqlite-db.ts SUM_FUNCTION); PostgreSQL sums the same text as numeric (postgres-sql.ts).
// Imports nothing: reader threads load it.

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/** An exact running sum: `units` × 10^`exponent`, and whether any value was added (SQL's sum of none is null). */
export class DecimalSum {
  private units = 0n;
  private exponent = 0;
  private any = false;

  add(x: number): void {
    this.any = true;
    const m = DECIMAL.exec(String(x));
    if (!m) throw new Error(`DecimalSum: cannot add ${String(x)}`);
    const [, sign, whole, fraction = '', exp = '0'] = m;
    const units = BigInt(`${sign}${whole}${fraction}`);
    const exponent = Number(exp) - fraction.length;
    if (exponent < this.exponent) {
      this.units *= 10n ** BigInt(this.exponent - exponent);
      this.exponent = exponent;
    }
    this.units += units * 10n ** BigInt(exponent - this.exponent);
  }

  /** The sum rounded to `precision` decimal places (none: exact) as the nearest double; null when nothing was added. */
  value(precision: number | null): number | null {
    if (!this.any) return null;
    let { units, exponent } = this;
    if (precision !== null && exponent < -precision) {
      const divisor = 10n ** BigInt(-precision - exponent);
      const negative = units < 0n;
      const magnitude = negative ? -units : units;
      let q = magnitude / divisor;
      if ((magnitude % divisor) * 2n >= divisor) q += 1n;
      units = negative ? -q : q;
      exponent = -precision;
    }
    const total = Number(`${units}e${exponent}`) + 0; // + 0: -0 reads as 0
    // Past the largest double there is no number to give (JSON has no Infinity): null, as on PostgreSQL.
    return Number.isFinite(total) ? total : null;
  }
}
