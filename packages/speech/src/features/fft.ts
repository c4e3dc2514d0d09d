/** In-place iterative radix-2 complex FFT over separate real and imaginary arrays. */
export class Fft {
  readonly size: number;
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;
  private readonly rev: Uint32Array;

  constructor(size: number) {
    if (size < 2 || (size & (size - 1)) !== 0) throw new RangeError('FFT size must be a power of two');
    this.size = size;
    this.cos = new Float64Array(size / 2);
    this.sin = new Float64Array(size / 2);
    for (let i = 0; i < size / 2; i++) {
      this.cos[i] = Math.cos((2 * Math.PI * i) / size);
      this.sin[i] = -Math.sin((2 * Math.PI * i) / size);
    }
    this.rev = new Uint32Array(size);
    const bits = Math.log2(size);
    for (let i = 0; i < size; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      this.rev[i] = r;
    }
  }

  /** Transform re/im in place. */
  transform(re: Float64Array, im: Float64Array): void {
    const n = this.size;
    const rev = this.rev;
    for (let i = 0; i < n; i++) {
      const j = rev[i] as number;
      if (j > i) {
        const tr = re[i] as number;
        re[i] = re[j] as number;
        re[j] = tr;
        const ti = im[i] as number;
        im[i] = im[j] as number;
        im[j] = ti;
      }
    }
    for (let len = 2; len <= n; len <<= 1) {
      const halfLen = len >> 1;
      const step = n / len;
      for (let i = 0; i < n; i += len) {
        for (let k = 0; k < halfLen; k++) {
          const wr = this.cos[k * step] as number;
          const wi = this.sin[k * step] as number;
          const a = i + k;
          const b = a + halfLen;
          const xr = (re[b] as number) * wr - (im[b] as number) * wi;
          const xi = (re[b] as number) * wi + (im[b] as number) * wr;
          re[b] = (re[a] as number) - xr;
          im[b] = (im[a] as number) - xi;
          re[a] = (re[a] as number) + xr;
          im[a] = (im[a] as number) + xi;
        }
      }
    }
  }
}

/**
 * Power spectrum of a real frame through a half-size complex FFT (the even samples as the
 * real part, the odd ones as the imaginary part), about twice as fast as a full transform.
 */
export class RealPowerSpectrum {
  readonly size: number;
  private readonly half: Fft;
  private readonly re: Float64Array;
  private readonly im: Float64Array;
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;

  constructor(size: number) {
    this.size = size;
    const h = size / 2;
    this.half = new Fft(h);
    this.re = new Float64Array(h);
    this.im = new Float64Array(h);
    this.cos = new Float64Array(h + 1);
    this.sin = new Float64Array(h + 1);
    for (let k = 0; k <= h; k++) {
      this.cos[k] = Math.cos((2 * Math.PI * k) / size);
      this.sin[k] = Math.sin((2 * Math.PI * k) / size);
    }
  }

  /** Write |X[k]|^2 for k = 0..size/2 of the real input `x` (length `size`) into `out`. */
  compute(x: Float64Array, out: Float64Array): void {
    const h = this.size / 2;
    const { re, im } = this;
    for (let n = 0; n < h; n++) {
      re[n] = x[2 * n] as number;
      im[n] = x[2 * n + 1] as number;
    }
    this.half.transform(re, im);
    for (let k = 0; k <= h; k++) {
      const a = k % h;
      const b = (h - k) % h;
      const zr = re[a] as number;
      const zi = im[a] as number;
      const cr = re[b] as number;
      const ci = -(im[b] as number);
      // Even part E = (Z[k] + conj Z[h-k]) / 2, odd part O = (Z[k] - conj Z[h-k]) / 2i.
      const er = 0.5 * (zr + cr);
      const ei = 0.5 * (zi + ci);
      const or = 0.5 * (zi - ci);
      const oi = -0.5 * (zr - cr);
      const wr = this.cos[k] as number;
      const wi = -(this.sin[k] as number);
      const xr = er + wr * or - wi * oi;
      const xi = ei + wr * oi + wi * or;
      out[k] = xr * xr + xi * xi;
    }
  }
}
