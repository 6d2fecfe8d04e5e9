// "Did you mean …?" for unknown names: the closest candidate by Damerau–Levenshtein distance.
// Uses the optimal-string-alignment variant (adjacent swaps count 1), enough for typos like 'acocuntname'.

/** Edit distance with insertions, deletions, substitutions and adjacent transpositions, each costing 1. */
function osaDistance(a: string, b: string): number {
  // Three rolling rows: the transposition step looks two rows back.
  let prev2: number[] = [];
  let prev: number[] = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
    }
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The candidate closest to `name`, compared case-insensitively, if within max(1, floor(len / 3)) edits
 * (len = length of `name`); on a tie the earliest candidate wins. Returns the candidate as given.
 */
export function suggestName(name: string, candidates: Iterable<string>): string | undefined {
  const target = name.toLowerCase();
  const limit = Math.max(1, Math.floor(target.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    // The length gap is a lower bound of the distance: skip the quadratic work when it already loses.
    if (Math.abs(lower.length - target.length) >= bestDistance) continue;
    const distance = osaDistance(target, lower);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
