/** One framework's details: regulator, source, controls and its dated updates. */
import type { z } from 'zod/v4/mini';
import type { frameworkDetails } from '../schemas/responses.js';
import {
  type NormalizeContext,
  defined,
  isRecord,
  objectOf,
  pickArray,
  pickBoolean,
  pickText,
  toText,
  unexpected,
} from './read.js';

type FrameworkDetailsModel = z.output<typeof frameworkDetails>;

export function normalizeFramework(raw: unknown, context: NormalizeContext): FrameworkDetailsModel {
  const object = objectOf(raw, context, 'framework');
  const inner = isRecord(object.framework) ? { ...object, ...object.framework } : object;
  const slug = pickText(inner, ['slug', 'id', 'frameworkSlug']) ?? toText(context.input?.slug);
  const name = pickText(inner, ['name', 'title', 'frameworkName']) ?? slug;
  if (name === undefined || slug === undefined) throw unexpected(context, 'framework name or slug', ['name', 'title', 'slug', 'id'], object);
  const controls = pickArray(inner, ['controls', 'requirements', 'controlSet', 'items'])?.filter(isRecord).map((control) =>
    defined({
      ...control,
      id: pickText(control, ['id', 'controlId', 'control_id', 'ref', 'code']) ?? '',
      title: pickText(control, ['title', 'name', 'description']) ?? '',
      group: pickText(control, ['group', 'category', 'family', 'domain', 'section']),
    }),
  );
  const updates = (pickArray(inner, ['updates', 'changes', 'changelog', 'history']) ?? []).filter(isRecord).map((update) =>
    defined({
      ...update,
      date: pickText(update, ['date', 'publishedAt', 'published', 'at', 'effectiveDate', 'updatedAt']) ?? '',
      title: pickText(update, ['title', 'name', 'summary', 'description']) ?? '',
      summary: pickText(update, ['summary', 'description', 'details']),
      url: pickText(update, ['url', 'link', 'sourceUrl']),
    }),
  );
  return defined({
    ...inner,
    slug,
    name,
    regulator: pickText(inner, ['regulator', 'authority', 'issuer', 'publisher']) ?? '',
    jurisdiction: pickText(inner, ['jurisdiction', 'country', 'region']) ?? '',
    sector: pickText(inner, ['sector', 'domain', 'industry']) ?? '',
    sourceUrl: pickText(inner, ['sourceUrl', 'source_url', 'url', 'link', 'source']) ?? '',
    verified: pickBoolean(inner, ['verified', 'isVerified']) ?? false,
    version: pickText(inner, ['version', 'revision']),
    description: pickText(inner, ['description', 'summary']),
    controls,
    updates,
  }) as FrameworkDetailsModel;
}
