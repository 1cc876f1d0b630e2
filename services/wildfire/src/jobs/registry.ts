import { createJobRegistry } from '@firma-riesgo/service-kit';
import { generateReportJob } from '../reports/jobs';
import { touchTokenJob } from '../tokens/jobs';

/** Every job wildfire runs. Adding a job here without a handler stops the worker from starting. */
export const wildfireJobs = createJobRegistry([touchTokenJob, generateReportJob]);
export type WildfireJobs = typeof wildfireJobs;
export const WILDFIRE_QUEUE = 'wildfire';
