/**
 * Example operations shown as GraphiQL tabs, one per main flow. test/unit/graphiql.test.ts
 * validates each against the schema, so they cannot drift from it.
 */
export interface ExampleTab {
  readonly title: string;
  readonly query: string;
  readonly variables: string;
}

export const EXAMPLE_TABS: readonly ExampleTab[] = [
  {
    title: 'Keys and DIDs',
    query: `# 1. Generate a key pair (the service keeps the private key sealed),
# 2. publish it as a DID (paste the publicKey into the variables), 3. resolve it.
# Pick the operation to run with the ▶ button's menu.
mutation GenerateKeypair {
  generateKeypair { keyId algorithm publicKey privateKey }
}

mutation CreateDid($input: CreateDidInput!) {
  createDid(input: $input) { created document { id } }
}

query DidResolution($did: String!) {
  didResolution(did: $did) { didDocument didResolutionMetadata { error } }
}
`,
    variables: JSON.stringify({ input: { method: 'credgate', publicKey: '<publicKey from GenerateKeypair>' }, did: '<document.id from CreateDid>' }, null, 2),
  },
  {
    title: 'Template and credential',
    query: `# Family B: a template signed by one of your DIDs, then a credential issued from it.
mutation CreateVcTemplate($template: VcTemplateInput!) {
  createVcTemplate(input: $template) { templateId name issuer credentialSubject { attributeName type } }
}

mutation IssueTemplateCredential($issue: IssueTemplateCredentialInput!) {
  issueTemplateCredential(input: $issue)
}

query TemplateCredential($credentialId: String!) {
  templateCredential(credentialId: $credentialId)
}
`,
    variables: JSON.stringify(
      {
        template: {
          templateName: 'Employee badge',
          description: 'Issued to staff',
          issuer: '<a DID of yours, without the ledger file id>',
          attributes: [
            { attributeName: 'name', type: 'string', description: 'Full name' },
            { attributeName: 'employeeNo', type: 'integer', description: 'Employee number' },
          ],
          expiration: { value: 1, unit: 'years' },
        },
        issue: { templateId: '<templateId from CreateVcTemplate>', credentialSubject: { name: 'Grace Hopper', employeeNo: 7 }, holder: '<holder DID>' },
        credentialId: '<credential id>',
      },
      null,
      2,
    ),
  },
  {
    title: 'Verify',
    query: `# Every check (signature, disclosures, ledger inclusion, status, expiry) with its result.
query VerifyTemplateCredential($credential: JSONObject!) {
  verifyTemplateCredential(credential: $credential) {
    verified
    checks { check ok detail }
    anchor { logId leafIndex treeSize }
  }
}
`,
    variables: JSON.stringify({ credential: { '<paste>': 'the credential returned by IssueTemplateCredential' } }, null, 2),
  },
  {
    title: 'Family A: schema, issue, verify',
    query: `# Family A: a JSON schema, a holder key pair and DID, the holder's consent, then issue and verify.
# Run the operations top to bottom (the ▶ button's menu), pasting each answer into the variables.
# Each needs its scope on your key: issuer (schema, issue), holder (key pair, DID, consent), verifier.
query IssuerDid {
  issuerDid
}

mutation CreateSchema($schema: CreateSchemaInput!) {
  createSchema(input: $schema) { name message { versionContol timestamp } }
}

mutation GenerateUserKeyPair {
  generateUserKeyPair { publicKey privateKey }
}

mutation RegisterUserDid($publicKey: String!) {
  registerUserDid(publicKey: $publicKey)
}

mutation SignUserData($privateKey: String!, $issuerDid: String!, $consent: JSONObject!) {
  signUserData(privateKey: $privateKey, issuerDid: $issuerDid, payload: $consent)
}

mutation IssueCredential($holder: HolderProofInput!, $credential: IssueCredentialInput!) {
  issueCredential(holder: $holder, input: $credential) { verifiableCredential userSignature }
}

query VerifyCredential($verify: VerifyCredentialInput!) {
  verifyCredential(input: $verify) { success message data { isVCValid isIssuerDIDValid holderProof reasons } }
}
`,
    variables: JSON.stringify(
      {
        schema: {
          schemaName: 'EmployeeBadge',
          description: 'Employee badge',
          attributes: [
            { attributeName: 'name', type: 'alphabet', description: 'Given name', required: true, maxLength: '20' },
            { attributeName: 'email', type: 'email', description: 'Work email', required: true },
          ],
          expiration: { value: 1, unit: 'years' },
        },
        publicKey: '<publicKey from GenerateUserKeyPair>',
        privateKey: '<privateKey from GenerateUserKeyPair>',
        issuerDid: '<issuerDid from IssuerDid>',
        consent: { credentialSubject: { id: '<DID from RegisterUserDid>', name: 'Grace', email: 'grace@example.com' } },
        holder: { did: '<DID from RegisterUserDid>', publicKey: '<publicKey>', userSignature: '<signature from SignUserData>' },
        credential: { schemaName: 'EmployeeBadge', credentialSubject: { id: '<DID from RegisterUserDid>', name: 'Grace', email: 'grace@example.com' } },
        verify: { credentials: { '<paste>': 'verifiableCredential from IssueCredential' }, publicKey: '<publicKey>', userSignature: '<userSignature from IssueCredential>' },
      },
      null,
      2,
    ),
  },
  {
    title: 'Faces (uploads)',
    query: `# Uploads: attach a file to a variable with the "Upload" control above the editor
# (variable originalPhoto, then selfiePhoto); the request is sent as a GraphQL multipart request.
mutation CreateFaceTemplates($originalPhoto: Upload!, $selfiePhoto: Upload!) {
  createFaceTemplates(originalPhoto: $originalPhoto, selfiePhoto: $selfiePhoto) {
    galleryFace { faceCount reason template }
    probeFace { faceCount reason template }
  }
}
`,
    variables: JSON.stringify({ originalPhoto: null, selfiePhoto: null }, null, 2),
  },
];
