// Exact nearest-neighbour search on the sphere: points as unit vectors in a k-d tree, where the
// straight-line (chord) distance orders points as the great-circle distance does. Built once in
// O(n log n); a query visits O(log n) nodes near land and at sea alike (a latitude/longitude grid
// degenerates at sea and near the poles).

export class NearestIndex {
  private readonly xyz: Float64Array;
  private readonly order: Int32Array;

  constructor(points: readonly { latitude: number; longitude: number }[]) {
    this.xyz = new Float64Array(points.length * 3);
    points.forEach((point, i) => this.xyz.set(unitVector(point.latitude, point.longitude), i * 3));
    this.order = Int32Array.from(points.keys());
    this.build(0, points.length, 0);
  }

  /** The index of the point nearest to (latitude, longitude); undefined when there are none. */
  nearest(latitude: number, longitude: number): number | undefined {
    const query = unitVector(latitude, longitude);
    let best = -1;
    let bestDistance = Infinity;
    const visit = (lo: number, hi: number, depth: number): void => {
      if (lo >= hi) return;
      const mid = (lo + hi) >> 1;
      const point = this.order[mid]!;
      const distance = this.squaredDistance(point, query);
      if (distance < bestDistance) {
        bestDistance = distance;
        best = point;
      }
      const axis = depth % 3;
      const offset = query[axis]! - this.xyz[point * 3 + axis]!;
      const [near, far] = offset < 0 ? [[lo, mid], [mid + 1, hi]] : [[mid + 1, hi], [lo, mid]];
      visit(near[0]!, near[1]!, depth + 1);
      if (offset * offset < bestDistance) visit(far[0]!, far[1]!, depth + 1);
    };
    visit(0, this.order.length, 0);
    return best === -1 ? undefined : best;
  }

  /** Puts the median of [lo, hi) by this depth's axis at the middle, smaller before, larger after; then each half. */
  private build(lo: number, hi: number, depth: number): void {
    if (hi - lo <= 1) return;
    const mid = (lo + hi) >> 1;
    this.select(lo, hi - 1, mid, depth % 3);
    this.build(lo, mid, depth + 1);
    this.build(mid + 1, hi, depth + 1);
  }

  /** Quickselect (Hoare partition) of the k-th smallest along an axis, within [left, right]. */
  private select(left: number, right: number, k: number, axis: number): void {
    const value = (i: number) => this.xyz[this.order[i]! * 3 + axis]!;
    while (left < right) {
      const pivot = value((left + right) >> 1);
      let i = left;
      let j = right;
      while (i <= j) {
        while (value(i) < pivot) i += 1;
        while (value(j) > pivot) j -= 1;
        if (i <= j) {
          this.swap(i, j);
          i += 1;
          j -= 1;
        }
      }
      if (k <= j) right = j;
      else if (k >= i) left = i;
      else return;
    }
  }

  private swap(i: number, j: number): void {
    const held = this.order[i]!;
    this.order[i] = this.order[j]!;
    this.order[j] = held;
  }

  private squaredDistance(point: number, query: readonly number[]): number {
    const dx = this.xyz[point * 3]! - query[0]!;
    const dy = this.xyz[point * 3 + 1]! - query[1]!;
    const dz = this.xyz[point * 3 + 2]! - query[2]!;
    return dx * dx + dy * dy + dz * dz;
  }
}

function unitVector(latitude: number, longitude: number): [number, number, number] {
  const lat = (latitude * Math.PI) / 180;
  const lon = (longitude * Math.PI) / 180;
  return [Math.cos(lat) * Math.cos(lon), Math.cos(lat) * Math.sin(lon), Math.sin(lat)];
}
