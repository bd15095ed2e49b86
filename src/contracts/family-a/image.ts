import { Type } from '@sinclair/typebox';
import { envelopeA, exampleA } from '../common';
import { operationGroup } from '../operation';

const TAG = 'Family A: face templates';
const op = operationGroup('A', TAG);
const Face = Type.Object({ pos: Type.String(), template: Type.String(), templateCreationResult: Type.Boolean() }, { additionalProperties: true });
const face = { pos: 'F', template: 'AAECAwQFBgc=', templateCreationResult: true };
const Photos = Type.Object({ originalPhoto: Type.String({ contentEncoding: 'binary' }), selfiePhoto: Type.String({ contentEncoding: 'binary' }) }, { title: 'CreateFaceTemplateInput' });

function createTemplate(method: 'post' | 'put') {
  return op(method, ['/user/image/createTemplate', '/user/createTemplate'], method === 'post' ? 'createFaceTemplate' : 'createFaceTemplatePut', {
    summary: 'Face templates from an ID photo and a selfie (POST and PUT, both spellings)',
    scopes: ['holder', 'issuer'],
    body: { schema: Photos, example: { originalPhoto: '(JPEG or PNG bytes)', selfiePhoto: '(JPEG or PNG bytes)' }, multipart: true },
    responses: {
      200: { description: 'the templates', schema: envelopeA(Type.Object({ probeFace: Face, galleryFace: Face }), true), example: exampleA({ probeFace: face, galleryFace: face }, 200, 'Templates Created') },
    },
  });
}

export const createFaceTemplate = createTemplate('post');
export const createFaceTemplatePut = createTemplate('put');

export const compareFaces = op('post', '/user/image/compare', 'compareFaces', {
  summary: 'Compare two templates (JSON), or a template with a photo (multipart `templateA` + `photo`)',
  scopes: [],
  body: { schema: Type.Object({ templateA: Type.String(), templateB: Type.String() }, { title: 'CompareFacesInput' }), example: { templateA: 'AAECAwQFBgc=', templateB: 'AAECAwQFBgc=' } },
  responses: {
    200: {
      description: 'the match',
      schema: envelopeA(Type.Object({ score: Type.Number(), match: Type.Boolean() }, { additionalProperties: true })),
      example: exampleA({ score: 0.93, match: true }, 200),
    },
  },
  rateLimited: true,
});
