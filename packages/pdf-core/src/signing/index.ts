// PAdES seals: CAdES signatures built with pkijs, RFC 3161 timestamps, incremental updates.
export * from './identity';
export * from './tsa-client';
export * from './cades';
export * from './incremental-update';
export * from './pades';
export * from './inspect';
export * from './verify';
export * from './verify-fetch';
export * from './local-pki';
export * from './local-pki-responder';
export * from './revocation-client';
export * from './revocation-fetch';
export * from './dss';
export * from './document-timestamp';
export * from './validation-data';
export * from './local-revocation';
