/** Dollars with enough digits for fractions of a cent; nothing spent reads 0.00, not 0.0. */
export const formatCost = (cost: number): string =>
  cost >= 0.01 || cost === 0 ? cost.toFixed(2) : cost.toPrecision(2)
