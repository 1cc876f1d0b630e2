import type { components, operations, webhooks } from './generated/esign-api';

/** The types of esign's OpenAPI document (src/generated/esign-api.ts), under the client's names. */
type Schemas = components['schemas'];
type JsonBody<Op extends keyof operations> = operations[Op] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

export type Health = Schemas['Health'];
export type EsignDocument = Schemas['Document'];
export type Erasure = Schemas['Erasure'];
export type CreateSigningRequest = JsonBody<'createSigningRequest'>;
export type CreatedSigningRequest = Schemas['CreatedSigningRequest'];
export type SigningRequestStatus = Schemas['SigningRequestStatus'];
export type DocumentSigningRequests = Schemas['DocumentSigningRequests'];

/** A file to upload: its bytes (or a Blob) and the name it is stored under. */
export interface UploadInput {
  file: Uint8Array | ArrayBuffer | Blob;
  filename: string;
  title?: string;
}

/** A PDF being downloaded: read `body` once (e.g. `Readable.fromWeb(download.body)` piped to a file). */
export interface Download {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  /** The file name esign gives it (Content-Disposition), when it gives one. */
  filename: string | null;
  /** Content-Length, when the server sent it. */
  size: number | null;
}

type EventOf<Op> = Op extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
/** Every webhook event esign sends (the `webhooks` section of its document), by `type`. */
export type EsignWebhookEvent = { [K in keyof webhooks]: EventOf<NonNullable<webhooks[K]['post']>> }[keyof webhooks];
export type EsignWebhookEventType = EsignWebhookEvent['type'];
