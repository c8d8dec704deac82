/** The public links of an uploaded file (download page and embeddable player). */
export interface FileLinks {
  download: string;
  embed: string;
}

/** The links of an uploaded file, from its download link's host (the host rotates, so it is read from the answer). */
export function linksOf(fileCode: string, downloadUrl: string | undefined): FileLinks | undefined {
  if (!downloadUrl || !URL.canParse(downloadUrl)) return undefined;
  const origin = new URL(downloadUrl).origin;
  return { download: `${origin}/d/${fileCode}`, embed: `${origin}/e/${fileCode}` };
}
