/**
 * The principal directions of a set of frames: the eigenvectors of their second-moment
 * matrix, by cyclic Jacobi rotations (exact enough and simple for a few hundred values a
 * frame, and run once, when the projection is made, never in the product's path).
 */

/** Accumulates the second moments of frames of `dim` values. */
export class SecondMoments {
  private readonly sums: Float64Array;
  private count = 0;

  constructor(readonly dim: number) {
    this.sums = new Float64Array(dim * dim);
  }

  /** Add `frames` frames of `data` (row-major). */
  add(data: Float32Array, frames: number): void {
    const dim = this.dim;
    if (data.length !== frames * dim) throw new RangeError('frames of the wrong size');
    for (let t = 0; t < frames; t++) {
      const row = t * dim;
      for (let i = 0; i < dim; i++) {
        const x = data[row + i] as number;
        if (x === 0) continue;
        const at = i * dim;
        for (let j = i; j < dim; j++)
          this.sums[at + j] = (this.sums[at + j] as number) + x * (data[row + j] as number);
      }
    }
    this.count += frames;
  }

  /** The mean of the products, symmetric. */
  matrix(): Float64Array {
    const dim = this.dim;
    if (this.count === 0) throw new RangeError('no frames to take moments of');
    const m = new Float64Array(dim * dim);
    for (let i = 0; i < dim; i++)
      for (let j = i; j < dim; j++) {
        const v = (this.sums[i * dim + j] as number) / this.count;
        m[i * dim + j] = v;
        m[j * dim + i] = v;
      }
    return m;
  }
}

/** Eigenvalues and unit eigenvectors of a symmetric matrix, largest eigenvalue first. */
export interface Principal {
  values: number[];
  /** `vectors[k]` is the k-th direction, `dim` values. */
  vectors: Float64Array[];
}

export function principalDirections(symmetric: Float64Array, dim: number): Principal {
  if (symmetric.length !== dim * dim) throw new RangeError('not a square matrix of that size');
  const a = Float64Array.from(symmetric);
  const v = new Float64Array(dim * dim);
  for (let i = 0; i < dim; i++) v[i * dim + i] = 1;
  const scale = a.reduce((sum, x) => sum + x * x, 0);
  for (let sweep = 0; sweep < 50; sweep++) {
    let off = 0;
    for (let p = 0; p < dim; p++) for (let q = p + 1; q < dim; q++) off += (a[p * dim + q] as number) ** 2;
    if (off <= 1e-24 * scale) break;
    for (let p = 0; p < dim; p++) for (let q = p + 1; q < dim; q++) rotate(a, v, dim, p, q);
  }
  const order = [...Array(dim).keys()].sort(
    (x, y) => (a[y * dim + y] as number) - (a[x * dim + x] as number),
  );
  return {
    values: order.map((k) => a[k * dim + k] as number),
    vectors: order.map((k) => {
      const vector = new Float64Array(dim);
      for (let i = 0; i < dim; i++) vector[i] = v[i * dim + k] as number;
      return vector;
    }),
  };
}

/** One Jacobi rotation zeroing `a[p][q]`, applied to the matrix and gathered into `v`. */
function rotate(a: Float64Array, v: Float64Array, dim: number, p: number, q: number): void {
  const apq = a[p * dim + q] as number;
  if (apq === 0) return;
  const theta = ((a[q * dim + q] as number) - (a[p * dim + p] as number)) / (2 * apq);
  const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
  const c = 1 / Math.sqrt(t * t + 1);
  const s = t * c;
  for (let k = 0; k < dim; k++) {
    const kp = a[k * dim + p] as number;
    const kq = a[k * dim + q] as number;
    a[k * dim + p] = c * kp - s * kq;
    a[k * dim + q] = s * kp + c * kq;
  }
  for (let k = 0; k < dim; k++) {
    const pk = a[p * dim + k] as number;
    const qk = a[q * dim + k] as number;
    a[p * dim + k] = c * pk - s * qk;
    a[q * dim + k] = s * pk + c * qk;
  }
  for (let k = 0; k < dim; k++) {
    const kp = v[k * dim + p] as number;
    const kq = v[k * dim + q] as number;
    v[k * dim + p] = c * kp - s * kq;
    v[k * dim + q] = s * kp + c * kq;
  }
}
