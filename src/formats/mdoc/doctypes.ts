/**
 * Doctype configurations: which namespaces and data elements a doctype has, each element's CBOR type
 * per its rulebook, which are mandatory, and which template/schema attribute names map onto them.
 * Issuance types every value through these, so a birth date leaves as a full-date (tag 1004), not a
 * string a wallet would show but never compare.
 */

/** ISO 18013-5 / CDDL element types this service can encode. */
export type MdocElementType =
  | 'tstr'
  | 'uint'
  | 'bool'
  | 'bstr'
  /** RFC 8943 full-date, tag 1004 ("YYYY-MM-DD"). */
  | 'full-date'
  /** RFC 8949 tdate, tag 0, whole seconds. */
  | 'tdate'
  /** full-date or tdate: PID rulebook's expiry_date/issuance_date; a date-only input becomes a full-date. */
  | 'full-date-or-tdate'
  | 'tstr-array'
  /** ISO 18013-5 §7.2.4 DrivingPrivileges. */
  | 'driving-privileges';

export interface MdocElementConfig {
  type: MdocElementType;
  /** Mandatory per the doctype's rulebook: issuance from attributes refuses to leave it out. */
  required?: boolean;
  /** Attribute names (template or schema attributes) that also map onto this element. */
  aliases?: readonly string[];
}

export interface MdocDoctypeConfig {
  docType: string;
  /** The namespace attributes map into unless told otherwise. */
  defaultNamespace: string;
  namespaces: Readonly<Record<string, Readonly<Record<string, MdocElementConfig>>>>;
}

const ageOver = (years: readonly number[]): Record<string, MdocElementConfig> =>
  Object.fromEntries(years.map((n) => [`age_over_${String(n).padStart(2, '0')}`, { type: 'bool' as const }]));

/**
 * EU PID, mdoc encoding (PID Rulebook, ARF annex 3.1): namespace = doctype = eu.europa.ec.eudi.pid.1.
 * Mandatory: the person's names, birth date, birth place and nationality, plus the administrative
 * validity and issuer fields.
 */
export const EUDI_PID: MdocDoctypeConfig = {
  docType: 'eu.europa.ec.eudi.pid.1',
  defaultNamespace: 'eu.europa.ec.eudi.pid.1',
  namespaces: {
    'eu.europa.ec.eudi.pid.1': {
      family_name: { type: 'tstr', required: true, aliases: ['familyName', 'lastName', 'surname'] },
      given_name: { type: 'tstr', required: true, aliases: ['givenName', 'firstName'] },
      birth_date: { type: 'full-date', required: true, aliases: ['birthDate', 'dateOfBirth', 'birthdate'] },
      birth_place: { type: 'tstr', required: true, aliases: ['birthPlace', 'placeOfBirth', 'place_of_birth'] },
      nationality: { type: 'tstr-array', required: true, aliases: ['nationalities'] },
      resident_address: { type: 'tstr', aliases: ['residentAddress', 'address'] },
      resident_country: { type: 'tstr', aliases: ['residentCountry'] },
      resident_state: { type: 'tstr', aliases: ['residentState'] },
      resident_city: { type: 'tstr', aliases: ['residentCity'] },
      resident_postal_code: { type: 'tstr', aliases: ['residentPostalCode', 'postalCode'] },
      resident_street: { type: 'tstr', aliases: ['residentStreet'] },
      resident_house_number: { type: 'tstr', aliases: ['residentHouseNumber'] },
      personal_administrative_number: { type: 'tstr', aliases: ['personalAdministrativeNumber'] },
      portrait: { type: 'bstr' },
      family_name_birth: { type: 'tstr', aliases: ['familyNameBirth'] },
      given_name_birth: { type: 'tstr', aliases: ['givenNameBirth'] },
      sex: { type: 'uint' },
      email_address: { type: 'tstr', aliases: ['email', 'emailAddress'] },
      mobile_phone_number: { type: 'tstr', aliases: ['mobilePhoneNumber', 'phone'] },
      expiry_date: { type: 'full-date-or-tdate', required: true, aliases: ['expiryDate'] },
      issuing_authority: { type: 'tstr', required: true, aliases: ['issuingAuthority'] },
      issuing_country: { type: 'tstr', required: true, aliases: ['issuingCountry'] },
      issuance_date: { type: 'full-date-or-tdate', aliases: ['issuanceDate'] },
      document_number: { type: 'tstr', aliases: ['documentNumber'] },
      issuing_jurisdiction: { type: 'tstr', aliases: ['issuingJurisdiction'] },
      trust_anchor: { type: 'tstr' },
      age_in_years: { type: 'uint', aliases: ['ageInYears'] },
      age_birth_year: { type: 'uint', aliases: ['ageBirthYear'] },
      ...ageOver([12, 14, 16, 18, 21, 65]),
    },
  },
};

/** ISO/IEC 18013-5 mDL (§7.2.1, table 5): namespace org.iso.18013.5.1. */
export const ISO_MDL: MdocDoctypeConfig = {
  docType: 'org.iso.18013.5.1.mDL',
  defaultNamespace: 'org.iso.18013.5.1',
  namespaces: {
    'org.iso.18013.5.1': {
      family_name: { type: 'tstr', required: true, aliases: ['familyName', 'lastName', 'surname'] },
      given_name: { type: 'tstr', required: true, aliases: ['givenName', 'firstName'] },
      birth_date: { type: 'full-date', required: true, aliases: ['birthDate', 'dateOfBirth', 'birthdate'] },
      issue_date: { type: 'full-date-or-tdate', required: true, aliases: ['issueDate'] },
      expiry_date: { type: 'full-date-or-tdate', required: true, aliases: ['expiryDate'] },
      issuing_country: { type: 'tstr', required: true, aliases: ['issuingCountry'] },
      issuing_authority: { type: 'tstr', required: true, aliases: ['issuingAuthority'] },
      document_number: { type: 'tstr', required: true, aliases: ['documentNumber'] },
      portrait: { type: 'bstr', required: true },
      driving_privileges: { type: 'driving-privileges', required: true, aliases: ['drivingPrivileges'] },
      un_distinguishing_sign: { type: 'tstr', required: true, aliases: ['unDistinguishingSign'] },
      administrative_number: { type: 'tstr', aliases: ['administrativeNumber'] },
      sex: { type: 'uint' },
      height: { type: 'uint' },
      weight: { type: 'uint' },
      eye_colour: { type: 'tstr', aliases: ['eyeColour', 'eyeColor'] },
      hair_colour: { type: 'tstr', aliases: ['hairColour', 'hairColor'] },
      birth_place: { type: 'tstr', aliases: ['birthPlace', 'placeOfBirth'] },
      resident_address: { type: 'tstr', aliases: ['residentAddress', 'address'] },
      portrait_capture_date: { type: 'tdate', aliases: ['portraitCaptureDate'] },
      age_in_years: { type: 'uint', aliases: ['ageInYears'] },
      age_birth_year: { type: 'uint', aliases: ['ageBirthYear'] },
      issuing_jurisdiction: { type: 'tstr', aliases: ['issuingJurisdiction'] },
      nationality: { type: 'tstr' },
      resident_city: { type: 'tstr', aliases: ['residentCity'] },
      resident_state: { type: 'tstr', aliases: ['residentState'] },
      resident_postal_code: { type: 'tstr', aliases: ['residentPostalCode', 'postalCode'] },
      resident_country: { type: 'tstr', aliases: ['residentCountry'] },
      family_name_national_character: { type: 'tstr' },
      given_name_national_character: { type: 'tstr' },
      signature_usual_mark: { type: 'bstr' },
      ...ageOver([16, 18, 21, 25, 65]),
    },
  },
};

const DOCTYPES: ReadonlyMap<string, MdocDoctypeConfig> = new Map([EUDI_PID, ISO_MDL].map((c) => [c.docType, c]));

/** The configured doctypes (what an issuer can offer as mso_mdoc). */
export function mdocDoctypes(): readonly MdocDoctypeConfig[] {
  return [...DOCTYPES.values()];
}

/** The configuration of a doctype, or undefined when this service has none for it. */
export function mdocDoctype(docType: string): MdocDoctypeConfig | undefined {
  return DOCTYPES.get(docType);
}
