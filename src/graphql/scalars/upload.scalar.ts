import { GraphQLError, GraphQLScalarType } from 'graphql';
import { Upload, type FileUpload } from 'graphql-upload-minimal';

/**
 * A multipart upload, handed to resolvers as `{ file: Promise<FileUpload> }` rather than as the
 * promise itself. Resolver arguments are gathered with Promise.all, which would await every
 * upload's promise before the resolver runs; graphql-upload-minimal does not buffer, so the
 * second file's promise cannot settle until the first file is read: a deadlock for real photos.
 */
export interface LazyUpload {
  readonly file: Promise<FileUpload>;
}

export const UploadScalar = new GraphQLScalarType<LazyUpload, never>({
  name: 'Upload',
  description: 'A file in a GraphQL multipart request (https://github.com/jaydenseric/graphql-multipart-request-spec).',
  parseValue(value: unknown): LazyUpload {
    if (value instanceof Upload) return { file: value.promise };
    throw new GraphQLError('Upload value invalid: send the file as a multipart request part', { extensions: { code: 'INVALID_INPUT' } });
  },
  parseLiteral(): never {
    throw new GraphQLError('Upload literal unsupported', { extensions: { code: 'INVALID_INPUT' } });
  },
  serialize(): never {
    throw new GraphQLError('Upload serialization unsupported');
  },
});
