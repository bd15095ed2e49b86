import { Field, Float, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'One face of a template pair (interface reference 2.8).' })
export class FaceTemplate {
  @Field(() => String, { description: 'Always `F` (face).' })
  pos!: string;

  @Field(() => String, { description: 'base64 of a versioned binary template naming its model; empty when no face.' })
  template!: string;

  @Field(() => Boolean)
  templateCreationResult!: boolean;

  @Field(() => Int, { description: 'Faces detected; the largest was used.' })
  faceCount!: number;

  @Field(() => String, { nullable: true, description: 'Why no template was made, e.g. no_face_detected.' })
  reason?: string;
}

@ObjectType({ description: 'REST: POST /user/image/createTemplate (data).' })
export class FaceTemplatesPayload {
  @Field(() => FaceTemplate, { description: 'From originalPhoto.' })
  galleryFace!: FaceTemplate;

  @Field(() => FaceTemplate, { description: 'From selfiePhoto.' })
  probeFace!: FaceTemplate;
}

@ObjectType({ description: 'score = 1 - euclidean distance (rounded); match = distance <= threshold.' })
export class FaceMatchResult {
  @Field(() => Float)
  distance!: number;

  @Field(() => Float)
  score!: number;

  @Field(() => Boolean)
  match!: boolean;

  @Field(() => Float)
  threshold!: number;
}
