// The turns of the event loop, for what the SQLite stores do once a turn rather than once a
// request (WalChangeSignal.changedThisTurn, HeldSnapshot): a loaded server handles every request
// whose socket the turn's poll found readable before the turn ends.

let turn = 0;
/** What runs when the current turn ends; undefined while no end is scheduled. */
let atEnd: Array<() => void> | undefined;

function endTurn(): void {
  const callbacks = atEnd!;
  atEnd = undefined;
  turn++;
  for (const callback of callbacks) callback();
}

/**
 * The number of the current turn. The turn ends in the check phase (an immediate), after its I/O
 * callbacks and the promise jobs they started; the first ask in a turn schedules that, so an idle
 * loop schedules nothing.
 */
export function currentTurn(): number {
  if (!atEnd) {
    atEnd = [];
    setImmediate(endTurn);
  }
  return turn;
}

/** Runs `callback` when the current turn ends. */
export function atTurnEnd(callback: () => void): void {
  currentTurn();
  atEnd!.push(callback);
}
