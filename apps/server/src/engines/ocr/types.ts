/** OCR behind one interface so the engine can be swapped (tesseract.js today). */

export interface OcrLine {
  text: string;
  confidence: number;
  /** Bounding box in image pixels. */
  bbox?: { x0: number; y0: number; x1: number; y1: number };
}

export interface OcrResult {
  /** Recognised text; paragraphs separated by a blank line. */
  text: string;
  /** 0..100. */
  confidence: number;
  lines?: OcrLine[];
}

export interface OcrEngine {
  readonly name: string;
  /** Reading-language codes this engine can read ('en', 'zh'...). */
  readonly languages: readonly string[];
  /** Recognises a PNG image. `languages` are reading-language codes; unsupported ones throw 'ocrUnavailable'. */
  recognize(png: Buffer, languages: string[]): Promise<OcrResult>;
  dispose(): Promise<void>;
}
