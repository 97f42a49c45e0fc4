import express, { type RequestHandler } from 'express';
import multer from 'multer';

/**
 * Bodies as Onetime Secret's clients send them: JSON, urlencoded (curl -d) and multipart
 * (curl -F, no files). 10,000 characters of up to 4 UTF-8 bytes, percent-encoded, stay below
 * the limit; beyond it is a 413 before anything is parsed.
 */
export const BODY_LIMIT = '256kb';
const BYTES = 256 * 1024;

const json = express.json({ limit: BODY_LIMIT, type: ['application/json', 'application/*+json'] });
const form = express.urlencoded({ extended: false, limit: BODY_LIMIT, parameterLimit: 50 });
const multipart = multer({ limits: { fieldSize: BYTES, fields: 50, files: 0, parts: 50 } }).none();

/** One parser per request, chosen by Content-Type (each still checks the type itself). */
export const parseBody: RequestHandler = (req, res, next) => {
  const type = req.headers['content-type'];
  if (!type) return next();
  if (/^multipart\//i.test(type)) return multipart(req, res, next);
  if (/json/i.test(type)) return json(req, res, next);
  return form(req, res, next);
};
