/** Dollars with enough digits for fractions of a cent. */
export const formatCost = (cost: number): string =>
  cost >= 0.01 ? cost.toFixed(2) : cost.toPrecision(2)
