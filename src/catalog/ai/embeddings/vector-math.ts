/** The vector scaled to unit Euclidean length, or undefined when it has no length to scale. */
export function l2Normalised(vector: readonly number[]): number[] | undefined {
  let squares = 0;
  for (const x of vector) squares += x * x;
  const norm = Math.sqrt(squares);
  if (!(norm > 0) || !Number.isFinite(norm)) return undefined;
  return vector.map((x) => x / norm);
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i += 1) {
    dot += a[i]! * b[i]!;
    aa += a[i]! * a[i]!;
    bb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(aa * bb);
}
