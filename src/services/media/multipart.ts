/**
 * A `multipart/form-data` body that streams: the file part is pulled from the source stream as the
 * request sends it (form-data-encoder does the encoding), so no file is ever held whole in memory or
 * written to disk. Backpressure flows from the socket back to the platform download.
 */
import type { Readable } from 'node:stream';
import {
  type FileLike,
  FormDataEncoder,
  type FormDataEntryValue,
  type FormDataLike,
} from 'form-data-encoder';

/**
 * form-data-encoder re-chunks parts bigger than 64 KiB by slicing the chunk's `buffer` from offset 0,
 * which is wrong for a Buffer that is a view into a larger pool; handing it ≤ 64 KiB views avoids that
 * path (and copies nothing).
 */
const PART = 64 * 1024;

/** The minimal FormData the encoder reads: fields in order, nothing buffered. */
class StreamingForm implements FormDataLike {
  private readonly fields: [string, FormDataEntryValue][] = [];

  get [Symbol.toStringTag](): string {
    return 'FormData';
  }

  append(name: string, value: unknown): void {
    this.fields.push([name, value as FormDataEntryValue]);
  }

  getAll(name: string): FormDataEntryValue[] {
    return this.fields.filter(([field]) => field === name).map(([, value]) => value);
  }

  entries(): IterableIterator<[string, FormDataEntryValue]> {
    return this.fields[Symbol.iterator]();
  }

  [Symbol.iterator](): IterableIterator<[string, FormDataEntryValue]> {
    return this.entries();
  }
}

/** The file part of an upload. */
export interface StreamedFile {
  name: string;
  mimeType?: string | undefined;
  stream: Readable;
}

/** A streaming multipart body and its content type. */
export interface MultipartBody {
  contentType: string;
  body: AsyncIterable<Uint8Array>;
}

/**
 * Encodes text fields and one file as a streaming multipart body. `onBytes` is called with the number
 * of file bytes handed to the request so far. The length is left unknown (chunked transfer): a size a
 * platform announces is not always exact.
 */
export function multipartBody(
  fields: Record<string, string>,
  fileField: string,
  file: StreamedFile,
  onBytes: (sent: number) => void,
): MultipartBody {
  let sent = 0;
  async function* parts(): AsyncGenerator<Uint8Array> {
    for await (const chunk of file.stream) {
      const bytes = chunk as Buffer;
      for (let offset = 0; offset < bytes.length; offset += PART) {
        const part = bytes.subarray(offset, offset + PART);
        sent += part.length;
        onBytes(sent);
        yield part;
      }
    }
  }
  const fileLike: FileLike = {
    name: file.name,
    type: file.mimeType || 'application/octet-stream',
    size: Number.NaN,
    lastModified: Date.now(),
    stream: parts,
    [Symbol.toStringTag]: 'File',
  };
  const form = new StreamingForm();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append(fileField, fileLike);
  const encoder = new FormDataEncoder(form);
  return { contentType: encoder.contentType, body: encoder.encode() };
}
