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
];
