import type { Response } from 'express';
import { digestOf } from './territory/cached-answer';

/**
 * Answers `body` as JSON with a strong ETag (a digest of the exact bytes sent, so it
 * names the reading's version, the parameters and the token's view alike: anything that
 * changes the answer changes it), or 304 with no body when the request's If-None-Match
 * names it (Express's `res.send` checks freshness). A request without If-None-Match
 * always gets the 200 (no Last-Modified is sent, so If-Modified-Since alone never
 * makes a 304). The limits already counted the request before this runs: a 304
 * costs the same as a 200.
 */
export function sendJsonWithEtag(res: Response, body: unknown): undefined {
  const json = JSON.stringify(body);
  res.setHeader('ETag', `"${digestOf([json])}"`);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.status(200).send(json);
  return undefined;
}
