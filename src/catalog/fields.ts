// Input fields several tools share, each with the message a caller sees when it is wrong.
import { z } from 'zod';

const MAX_URL_LENGTH = 2048;

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

export const httpUrl = (description: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(MAX_URL_LENGTH)
    .refine(isHttpUrl, { message: 'expected an absolute http:// or https:// URL' })
    .describe(description);

export const evmAddress = (description: string) =>
  z
    .string()
    .trim()
    .regex(/^0x[0-9a-fA-F]{40}$/, { message: 'expected a 0x-prefixed 20-byte hex address (42 characters)' })
    .describe(description);

export const languageCode = (description: string) =>
  z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, { message: 'expected an ISO 639 language code such as "en" or "pt-BR"' })
    .describe(description);

/** A non-empty string of at most `max` characters. */
export const text = (description: string, max: number) => z.string().min(1).max(max).describe(description);

export const limit = (min: number, max: number, fallback: number, description: string) =>
  z.number().int().min(min).max(max).default(fallback).describe(description);
