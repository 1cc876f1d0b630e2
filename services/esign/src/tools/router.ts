import express, { type Router } from 'express';
import type { OpenAPIRegistry } from '@firma-riesgo/service-kit';
import type { ToolsDeps } from './http';
import { registerExtractPages } from './extract-pages';
import { registerFlatten } from './flatten';
import { registerInfo } from './info';
import { registerProtect } from './protect';
import { registerRotate } from './rotate';
import { registerSplit } from './split';
import { registerUnprotect } from './unprotect';
import { registerWatermark } from './watermark';
import { registerPageNumbers } from './page-numbers';
import { registerMetadata } from './metadata';
import { registerCompress } from './compress';
import { registerToPdfa } from './to-pdfa';
import { registerImagesToPdf } from './images-to-pdf';
import { registerPdfToImages } from './pdf-to-images';
import { registerRedact } from './redact';
import { registerOcr } from './ocr';
import { registerOfficeToPdf } from './office-to-pdf';

export type { ToolsDeps } from './http';

/** The stateless PDF tools under /firma/tools/*, each in its own file. */
export function toolsRouter(registry: OpenAPIRegistry, deps: ToolsDeps): Router {
  const router = express.Router();
  const ctx = { ...deps, router, registry };
  const tools = [
    registerInfo,
    registerOfficeToPdf,
    registerCompress,
    registerToPdfa,
    registerOcr,
    registerWatermark,
    registerPageNumbers,
    registerFlatten,
    registerSplit,
    registerExtractPages,
    registerRotate,
    registerRedact,
    registerMetadata,
    registerProtect,
    registerUnprotect,
    registerImagesToPdf,
    registerPdfToImages,
  ];
  for (const register of tools) {
    register(ctx);
  }
  return router;
}
