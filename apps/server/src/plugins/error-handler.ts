import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from '../errors.js';

interface ValidationIssue {
  keyword?: string;
  instancePath?: string;
  message?: string;
  params?: { keys?: string[]; errors?: ZodIssueLike[][] };
}

interface ZodIssueLike {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
}

/** For a body that may take several shapes, explain it against the shape it came closest to. */
function closestBranch(issue: ValidationIssue): ValidationIssue[] | undefined {
  const branches = issue.params?.errors;
  if (issue.keyword !== 'invalid_union' || !branches?.length) return undefined;
  const closest = branches.reduce((best, branch) => (branch.length < best.length ? branch : best));
  const prefix = issue.instancePath ?? '';
  return closest.map((inner) => ({
    keyword: inner.code,
    instancePath: `${prefix.replace(/\/$/, '')}/${inner.path.map(String).join('/')}`,
    message: inner.message,
    params: { keys: inner.keys ?? [] },
  }));
}

/** Turns one validation issue into "field: what is wrong". */
function describeIssue(issue: ValidationIssue, context: string): string {
  const branch = closestBranch(issue);
  if (branch) return branch.map((inner) => describeIssue(inner, context)).join('; ');
  const unknownKeys = issue.keyword === 'unrecognized_keys' ? (issue.params?.keys ?? []) : [];
  if (unknownKeys.length > 0) {
    const field = (issue.instancePath ?? '').replace(/^\/+|\/+$/g, '').replaceAll('/', '.');
    const names = unknownKeys.map((key) => (field ? `${field}.${key}` : key)).join(', ');
    return `Unknown field${unknownKeys.length > 1 ? 's' : ''}: ${names}`;
  }
  const field = (issue.instancePath ?? '').replace(/^\/+|\/+$/g, '').replaceAll('/', '.');
  const message = issue.message ?? 'is not valid';
  if (!field) return context === 'body' ? `Request body: ${message}` : `${context}: ${message}`;
  // Messages that already start with the field name are not prefixed twice.
  return message.startsWith(field) ? message : `${field}: ${message}`;
}

const FRAMEWORK_MESSAGES: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'The request body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'The request body is empty; send a JSON object' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'The request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: 'Send the request body as application/json' },
  FST_REQ_FILE_TOO_LARGE: { status: 413, message: 'The recording file is too large' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 415, message: 'Send the request as multipart/form-data' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    message: 'The Content-Length header does not match the body',
  },
};

/**
 * One error shape for every failure: {status, message, code?}. Messages are shown for
 * 4xx only; anything else is logged with the request id and answered in general terms.
 */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply
        .status(error.status)
        .send({ status: error.status, message: error.message, code: error.code, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation as unknown as ValidationIssue[];
      const message = issues
        .map((issue) => describeIssue(issue, error.validationContext ?? 'body'))
        .join('; ');
      return reply.status(400).send({ status: 400, message, code: 'VALIDATION_FAILED' });
    }
    const known = error.code ? FRAMEWORK_MESSAGES[error.code] : undefined;
    if (known) {
      return reply
        .status(known.status)
        .send({ status: known.status, message: known.message, code: error.code });
    }
    if (error.statusCode === 429) {
      return reply.status(429).send({ status: 429, message: error.message, code: 'RATE_LIMITED' });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply
        .status(error.statusCode)
        .send({ status: error.statusCode, message: error.message, code: error.code });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
    } else {
      request.log.error({ err: error }, 'unhandled error');
    }
    return reply.status(500).send({
      status: 500,
      message: `Something went wrong on our side. Please try again; if it keeps happening, contact support with reference ${request.id}.`,
      code: 'INTERNAL',
    });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({
      status: 404,
      message: `No such endpoint: ${request.method} ${request.url.split('?')[0] ?? ''}`,
      code: 'NOT_FOUND',
    });
  });
}
