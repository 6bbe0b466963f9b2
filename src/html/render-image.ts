import type { Atom, ImageBlock } from '../model/types.ts';
import { escapeHtml } from './escape-html.ts';
import { truncated } from './cap-text.ts';
import type { RenderContext } from './render-context.ts';

/** The largest image a page embeds, in base64 characters (about 1.5 MB of image). */
export const IMAGE_CAP = 2_000_000;
const RASTER = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * An `image` block as an `<img>` with a `data:` URI, only for a base64 raster source (PNG, JPEG, GIF,
 * WebP) with clean base64 under {@link IMAGE_CAP}: an SVG, a URL source (a request leaving the page)
 * or anything else is shown as a labelled placeholder, and one over the cap as a note (`HTML_TRUNCATED`).
 * @param block the Messages API image block (`{type: "image", source: {type: "base64", media_type, data}}`)
 * @param atom its atom
 * @param ctx where a cut is counted
 * @returns the HTML
 */
export function renderImage(block: ImageBlock, atom: Pick<Atom, 'uuid' | 'fsid'>, ctx: RenderContext): string {
  const source = block.source;
  const media = typeof source['media_type'] === 'string' ? source['media_type'] : '';
  const data = typeof source['data'] === 'string' ? source['data'] : '';
  if (source.type !== 'base64' || !RASTER.has(media) || !BASE64.test(data))
    return `<p class="image-omitted">[image not shown: ${escapeHtml(media === '' ? source.type : media)}]</p>`;
  if (data.length > IMAGE_CAP)
    return truncated(
      `image: ${media} of ${data.length.toLocaleString('en')} base64 characters, over the ${IMAGE_CAP.toLocaleString('en')} cap; not shown`,
      atom,
      ctx,
    );
  return `<img class="image" alt="image from the transcript" src="data:${media};base64,${data}">`;
}
