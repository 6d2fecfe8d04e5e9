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

/** 10^p for the places a scaled sum takes (exact doubles). */
const POWERS = Array.from({ length: 16 }, (_, p) => 10 ** p);

/** |k| up to 2^50: a double of k × 10^-p then has an ulp under a quarter of 10^-p, so k is the only such decimal that reads as it. */
const SCALED_MAX = 2 ** 50;

/**
 * An exact running sum: `units` × 10^`exponent`, and whether any value was added (SQL's sum of none
 * is null). A value of at most `places` decimal places (a stored number is rounded to its field's
 * precision) is added as the integer k of k × 10^-places, in a double while the running total stays
 * a safe integer: exact, and about ten times cheaper than the decimal text and BigInts of add's other
 * path, which every other value takes (test/schema/decimal.test.ts holds the two paths equal).
 */
export class DecimalSum {
  private units = 0n;
  private exponent = 0;
  private any = false;
  private scaled = 0;
  private scale = -1;

  add(x: number, places?: number): void {
    this.any = true;
    if (places !== undefined && places >= 0 && places < POWERS.length && (this.scale === -1 || this.scale === places)) {
      const power = POWERS[places]!;
      const k = Math.round(x * power);
      // k / power === x: x is the double nearest k × 10^-places, which, k being small enough, is its decimal.
      if (Math.abs(k) <= SCALED_MAX && k / power === x) {
        this.scale = places;
        const total = this.scaled + k;
        if (Number.isSafeInteger(total)) this.scaled = total;
        else {
          this.addUnits(BigInt(this.scaled), -places);
          this.scaled = k;
        }
        return;
      }
    }
    const m = DECIMAL.exec(String(x));
    if (!m) throw new Error(`DecimalSum: cannot add ${String(x)}`);
    const [, sign, whole, fraction = '', exp = '0'] = m;
    this.addUnits(BigInt(`${sign}${whole}${fraction}`), Number(exp) - fraction.length);
  }

  private addUnits(units: bigint, exponent: number): void {
    if (exponent < this.exponent) {
      this.units *= 10n ** BigInt(this.exponent - exponent);
      this.exponent = exponent;
    }
    this.units += units * 10n ** BigInt(exponent - this.exponent);
  }

  /** The sum rounded to `precision` decimal places (none: exact) as the nearest double; null when nothing was added. */
  value(precision: number | null): number | null {
    if (!this.any) return null;
    if (this.scaled !== 0) {
      this.addUnits(BigInt(this.scaled), -this.scale);
      this.scaled = 0;
    }
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
