/**
 * Files as each endpoint shows them — with the API's quirks kept on purpose: numbers as strings,
 * `file_code` in lists but `filecode` elsewhere, absolute protected links in upload results but
 * relative ones in `file/info`.
 */
import type { StoredFile } from './state';

/** Image addresses of a file. */
function images(origin: string, file: StoredFile) {
  return {
    single_img: `${origin}/snaps/${file.code}.jpg`,
    splash_img: `${origin}/splash/${file.code}.jpg`,
    thumb_img: `${origin}/thumbnails/${file.code}.jpg`,
  };
}

/** A `file/list`, `folder/list` or search item. */
export function listItem(origin: string, file: StoredFile) {
  return {
    download_url: `${origin}/d/${file.code}`,
    single_img: images(origin, file).single_img,
    file_code: file.code,
    canplay: file.canPlay ? 1 : 0,
    length: String(file.length),
    views: String(file.views),
    uploaded: file.uploaded,
    public: file.public ? '1' : '0',
    fld_id: file.folderId,
    title: file.title,
  };
}

/** A search result (a list-like shape with the splash image too). */
export function searchItem(origin: string, file: StoredFile) {
  const { single_img, splash_img } = images(origin, file);
  return {
    file_code: file.code,
    title: file.title,
    single_img,
    splash_img,
    length: String(file.length),
    views: String(file.views),
    uploaded: file.uploaded,
  };
}

/** An upload result item (absolute links). */
export function uploadItem(origin: string, file: StoredFile) {
  const { single_img, splash_img } = images(origin, file);
  return {
    download_url: `${origin}/d/${file.code}`,
    single_img,
    status: 200,
    filecode: file.code,
    splash_img,
    canplay: file.canPlay ? 1 : 0,
    size: String(file.size),
    length: String(file.length),
    uploaded: file.uploaded,
    protected_embed: `${origin}/e/${file.protectedCode}`,
    protected_dl: `${origin}/d/${file.protectedCode}`,
    title: file.title,
  };
}

/** A `file/info` item (relative protected links, as the docs show). */
export function infoItem(origin: string, file: StoredFile) {
  const { single_img, splash_img } = images(origin, file);
  return {
    single_img,
    status: file.dmca ? 451 : 200,
    filecode: file.code,
    splash_img,
    canplay: file.canPlay ? 1 : 0,
    size: String(file.size),
    views: String(file.views),
    length: String(file.length),
    uploaded: file.uploaded,
    last_view: file.lastView,
    protected_embed: `/e/${file.protectedCode}`,
    protected_dl: `/d/${file.protectedCode}`,
    title: file.title,
  };
}

/** A `file/image` item. */
export function imagesItem(origin: string, file: StoredFile) {
  return { status: file.dmca ? 451 : 200, filecode: file.code, title: file.title, ...images(origin, file) };
}

/** The item of a code the account does not have. */
export function notYours(code: string) {
  return { status: 'Not found or not your file', filecode: code };
}
