/** VC template (spec §2.9) attribute definitions, subject validation and expiration periods. Pure. */
export {
  MAX_DESCRIPTION_LENGTH,
  MAX_STRING_LENGTH,
  MAX_TEMPLATE_ATTRIBUTES,
  TEMPLATE_ATTRIBUTE_TYPES,
  type SubjectValidation,
  type TemplateAttribute,
  type TemplateAttributeType,
  attributeValueIssue,
  isDid,
  isEmail,
  parseTemplateAttributes,
  validateTemplateSubject,
} from './template-attributes';
export {
  EXPIRATION_UNITS,
  MAX_EXPIRATION_VALUE,
  type ExpirationUnit,
  type TemplateExpiration,
  addExpiration,
  parseTemplateExpiration,
} from './template-expiration';
export {
  type CalendarDate,
  compareCalendarDates,
  daysInMonth,
  isLeapYear,
  isRfc3339DateTime,
  parseCalendarDate,
  parseDateValue,
} from './date-values';
