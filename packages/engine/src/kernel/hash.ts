// A stable, dependency-free 64-bit hash (two independent 32-bit lanes) over text. It is for
// detecting divergence between runs, not for security; it runs the same in Node and in a browser.

export class StreamHash {
  private h1 = 0x811c9dc5;
  private h2 = 0x2545f491;

  update(text: string): this {
    let h1 = this.h1;
    let h2 = this.h2;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
      h2 ^= h2 >>> 15;
    }
    // a separator so that ["ab","c"] and ["a","bc"] differ
    h1 = Math.imul(h1 ^ 0x1e, 0x01000193);
    h2 = Math.imul(h2 ^ 0x1e, 0x5bd1e995);
    this.h1 = h1;
    this.h2 = h2;
    return this;
  }

  /** An independent copy: hash on from here without changing this one. */
  fork(): StreamHash {
    const h = new StreamHash();
    h.h1 = this.h1;
    h.h2 = this.h2;
    return h;
  }

  digest(): string {
    let a = this.h1 ^ (this.h2 >>> 7);
    a = Math.imul(a ^ (a >>> 16), 0x85ebca6b);
    a ^= a >>> 13;
    let b = this.h2 ^ (this.h1 >>> 11);
    b = Math.imul(b ^ (b >>> 16), 0xc2b2ae35);
    b ^= b >>> 16;
    return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
  }
}

export function hashText(text: string): string {
  return new StreamHash().update(text).digest();
}
