// The standard objects every organization starts with (numbers, names, keys and primary
// fields of the public service; account fields from docs/api.md and the service's common account fields).

import { AppError } from '../errors.js';
import type { FieldSpec, ObjectSpec } from './build-object.js';
import { suggestName } from './suggest.js';
import { FIRST_CUSTOM_OBJECT, type PicklistOption } from './types.js';

const opts = (...labels: string[]): PicklistOption[] => labels.map((label, i) => ({ value: i + 1, label }));

const PRIORITY = opts('Low', 'Normal', 'High');

const text = (name: string, label?: string, extra: Partial<FieldSpec> = {}): FieldSpec => ({ name, type: 'text', ...(label ? { label } : {}), ...extra });
const lookup = (name: string, target: number, label?: string): FieldSpec => ({ name, type: 'lookup', target, ...(label ? { label } : {}) });
const required = (name: string, label: string, maxLength = 200): FieldSpec => ({ name, type: 'text', label, required: true, maxLength });

export const ACCOUNT_OBJECT_TYPE = 1;

/** Object types in the service's order (docs/compat.md); the first field listed for each is its primary field unless it says otherwise. */
export const STANDARD_OBJECT_SPECS: readonly ObjectSpec[] = [
  {
    objectType: 1, systemName: 'account', displayName: 'Account', keyField: 'accountid', primaryField: 'accountname',
    fields: [
      required('accountname', 'Account Name'),
      text('accountnumber', 'Account Number', { indexed: true }),
      text('firstname', 'First Name'), text('lastname', 'Last Name'),
      { name: 'telephone1', type: 'telephone', label: 'Main Phone' },
      { name: 'telephone2', type: 'telephone', label: 'Other Phone' },
      { name: 'telephone3', type: 'telephone', label: 'Telephone 3' },
      { name: 'emailaddress1', type: 'email', label: 'Email' },
      { name: 'emailaddress2', type: 'email', label: 'Email Address 2' },
      { name: 'emailaddress3', type: 'email', label: 'Email Address 3' },
      text('idnumber', 'ID Number'),
      text('billingstreet', 'Billing Street'), text('billingcity', 'Billing City'),
      text('billingzipcode', 'Billing Zip Code'), text('billingstate', 'Billing State'),
      text('billingcountry', 'Billing Country'),
      { name: 'websiteurl', type: 'url', label: 'Website' },
      { name: 'accounttypecode', type: 'picklist', label: 'Account Type', options: opts('Customer', 'Partner', 'Prospect', 'Vendor', 'Other') },
      { name: 'originatingleadcode', type: 'picklist', label: 'Originating Lead', options: opts('Web', 'Referral', 'Advertisement', 'Trade Show', 'Other') },
      { name: 'industrycode', type: 'picklist', label: 'Industry', options: opts('Agriculture', 'Construction', 'Consulting', 'Education', 'Finance', 'Healthcare', 'Manufacturing', 'Retail', 'Technology', 'Other') },
      { name: 'description', type: 'textarea', label: 'Description' },
      lookup('primarycontactid', 2, 'Primary Contact'),
      lookup('parentaccountid', 1, 'Parent Account'),
      lookup('campaignid', 67, 'Campaign'),
      { name: 'pcfsystemfield85', type: 'datetime', label: 'Last Contacted' },
    ],
  },
  {
    objectType: 2, systemName: 'contact', displayName: 'Contact', keyField: 'contactid', primaryField: 'fullname',
    fields: [
      required('fullname', 'Full Name'), text('firstname', 'First Name'), text('lastname', 'Last Name'),
      text('jobtitle', 'Job Title'),
      { name: 'emailaddress1', type: 'email', label: 'Email' },
      { name: 'telephone1', type: 'telephone', label: 'Business Phone' },
      { name: 'mobilephone', type: 'telephone', label: 'Mobile Phone' },
      lookup('accountid', 1, 'Account'),
      { name: 'birthdate', type: 'date', label: 'Birthday' },
      { name: 'description', type: 'textarea', label: 'Description' },
    ],
  },
  {
    objectType: 3, systemName: 'lead', displayName: 'Lead', keyField: 'leadid', primaryField: 'fullname',
    fields: [
      required('fullname', 'Full Name'), text('firstname', 'First Name'), text('lastname', 'Last Name'),
      text('companyname', 'Company Name'), text('jobtitle', 'Job Title'),
      { name: 'emailaddress1', type: 'email', label: 'Email' },
      { name: 'telephone1', type: 'telephone', label: 'Business Phone' },
      { name: 'leadsourcecode', type: 'picklist', label: 'Lead Source', options: opts('Web', 'Referral', 'Advertisement', 'Trade Show', 'Other') },
      { name: 'description', type: 'textarea', label: 'Description' },
    ],
  },
  {
    objectType: 4, systemName: 'opportunity', displayName: 'Opportunity', keyField: 'opportunityid', primaryField: 'name',
    fields: [
      required('name', 'Topic'), lookup('accountid', 1, 'Account'), lookup('contactid', 2, 'Contact'),
      { name: 'estimatedvalue', type: 'number', label: 'Est. Revenue', precision: 2 },
      { name: 'estimatedclosedate', type: 'date', label: 'Est. Close Date' },
      { name: 'closeprobability', type: 'number', label: 'Probability', precision: 0 },
      { name: 'description', type: 'textarea', label: 'Description' },
    ],
  },
  {
    objectType: 5, systemName: 'cases', displayName: 'Cases', keyField: 'casesid', primaryField: 'title',
    fields: [
      required('title', 'Case Title'), text('ticketnumber', 'Case Number'),
      lookup('accountid', 1, 'Account'), lookup('contactid', 2, 'Contact'),
      { name: 'prioritycode', type: 'picklist', label: 'Priority', options: PRIORITY },
      { name: 'description', type: 'textarea', label: 'Description' },
    ],
  },
  {
    objectType: 6, systemName: 'activity', displayName: 'Activity', keyField: 'activityid', primaryField: 'subject',
    fields: [
      required('subject', 'Subject'),
      { name: 'scheduledstart', type: 'datetime', label: 'Start Date' },
      { name: 'scheduledend', type: 'datetime', label: 'End Date' },
      { name: 'description', type: 'textarea', label: 'Description' },
    ],
  },
  {
    objectType: 7, systemName: 'note', displayName: 'Note', keyField: 'noteid', primaryField: 'subject',
    // docs/compat.md: a note is on a record (objectid of the object objecttypecode) and has no required title.
    fields: [
      text('subject', 'Title'), { name: 'notetext', type: 'html', label: 'Description' },
      text('objectid', 'Regarding', { maxLength: 36, indexed: true }),
      { name: 'objecttypecode', type: 'number', label: 'Regarding Object Type', precision: 0 },
      lookup('accountid', 1, 'Account'),
      // A reply to another note (an n8n node's "Parent Note ID"): docs/compat.md, Notes.
      lookup('parentnoteid', 7, 'Parent Note'),
    ],
  },
  {
    objectType: 8, systemName: 'competitor', displayName: 'Competitor', keyField: 'competitorid', primaryField: 'name',
    fields: [required('name', 'Name'), { name: 'websiteurl', type: 'url', label: 'Website' }, { name: 'strengths', type: 'textarea', label: 'Strengths' }],
  },
  {
    objectType: 9, systemName: 'crmuser', displayName: 'CrmUser', keyField: 'crmuserid', primaryField: 'fullname', readOnly: true,
    fields: [required('fullname', 'Full Name'), { name: 'emailaddress1', type: 'email', label: 'Email' }],
  },
  {
    objectType: 10, systemName: 'task', displayName: 'Task', keyField: 'taskid', primaryField: 'subject',
    fields: [
      required('subject', 'Subject'), { name: 'duedate', type: 'datetime', label: 'Due Date' },
      { name: 'prioritycode', type: 'picklist', label: 'Priority', options: PRIORITY },
      lookup('accountid', 1, 'Account'), lookup('contactid', 2, 'Contact'),
      { name: 'description', type: 'textarea', label: 'Description' },
    ],
  },
  {
    objectType: 13, systemName: 'crmorder', displayName: 'CrmOrder', keyField: 'crmorderid', primaryField: 'name',
    fields: [
      required('name', 'Name'), text('ordernumber', 'Order Number'), lookup('accountid', 1, 'Account'),
      { name: 'totalamount', type: 'number', label: 'Total Amount', precision: 2 },
      { name: 'orderdate', type: 'date', label: 'Order Date' },
    ],
  },
  {
    objectType: 14, systemName: 'product', displayName: 'Product', keyField: 'productid', primaryField: 'productname',
    fields: [
      required('productname', 'Name'), text('productnumber', 'Product Number'),
      { name: 'price', type: 'number', label: 'Price', precision: 2 },
      { name: 'description', type: 'textarea', label: 'Description' },
    ],
  },
  {
    objectType: 17, systemName: 'crmorderitem', displayName: 'CrmOrderItem', keyField: 'crmorderitemid', primaryField: 'productname',
    fields: [
      required('productname', 'Product Name'), lookup('crmorderid', 13, 'Order'), lookup('productid', 14, 'Product'),
      { name: 'quantity', type: 'number', label: 'Quantity', precision: 2 },
      { name: 'priceperunit', type: 'number', label: 'Price Per Unit', precision: 2 },
    ],
  },
  {
    objectType: 28, systemName: 'contract', displayName: 'Contract', keyField: 'contractid', primaryField: 'name',
    fields: [
      required('name', 'Name'), lookup('accountid', 1, 'Account'),
      { name: 'startdate', type: 'date', label: 'Start Date' }, { name: 'enddate', type: 'date', label: 'End Date' },
      { name: 'totalvalue', type: 'number', label: 'Total Value', precision: 2 },
    ],
  },
  {
    objectType: 33, systemName: 'accountproduct', displayName: 'AccountProduct', keyField: 'accountproductid', primaryField: 'productname',
    fields: [
      required('productname', 'Product Name'), lookup('accountid', 1, 'Account'), lookup('productid', 14, 'Product'),
      { name: 'quantity', type: 'number', label: 'Quantity', precision: 2 },
    ],
  },
  {
    objectType: 46, systemName: 'project', displayName: 'Project', keyField: 'projectid', primaryField: 'name',
    fields: [
      required('name', 'Name'), lookup('accountid', 1, 'Account'),
      { name: 'startdate', type: 'date', label: 'Start Date' }, { name: 'duedate', type: 'date', label: 'Due Date' },
      { name: 'description', type: 'textarea', label: 'Description' },
    ],
  },
  {
    objectType: 67, systemName: 'campaign', displayName: 'Campaign', keyField: 'campaignid', primaryField: 'name',
    fields: [
      required('name', 'Name'), { name: 'budget', type: 'number', label: 'Budget', precision: 2 },
      { name: 'startdate', type: 'date', label: 'Start Date' }, { name: 'enddate', type: 'date', label: 'End Date' },
      { name: 'description', type: 'textarea', label: 'Description' },
    ],
  },
  {
    objectType: 76, systemName: 'article', displayName: 'Article', keyField: 'articleid', primaryField: 'title',
    fields: [required('title', 'Title'), { name: 'content', type: 'html', label: 'Content' }, text('keywords', 'Keywords')],
  },
  {
    objectType: 86, systemName: 'invoice', displayName: 'Invoice', keyField: 'invoiceid', primaryField: 'name',
    fields: [
      required('name', 'Name'), text('invoicenumber', 'Invoice Number'), lookup('accountid', 1, 'Account'),
      lookup('crmorderid', 13, 'Order'),
      { name: 'totalamount', type: 'number', label: 'Total Amount', precision: 2 },
      { name: 'duedate', type: 'date', label: 'Due Date' },
    ],
  },
];

/**
 * A standard object's stored spec brought up to its definition in STANDARD_OBJECT_SPECS: the
 * standard fields as defined now, then the custom fields the organization added. `added` are the
 * fields the stored table lacks a column for. Undefined when the object is not standard or is
 * already up to date. A field may change only in ways its column keeps (label, type within the
 * same column type, required, length).
 */
export function upgradedStandardSpec(stored: ObjectSpec): { spec: ObjectSpec; added: FieldSpec[] } | undefined {
  const standard = STANDARD_OBJECT_SPECS.find((s) => s.objectType === stored.objectType);
  if (!standard) return undefined;
  const standardNames = new Set(standard.fields.map((f) => f.name));
  const storedNames = new Set(stored.fields.map((f) => f.name));
  const spec: ObjectSpec = { ...stored, primaryField: standard.primaryField, fields: [...standard.fields, ...stored.fields.filter((f) => !standardNames.has(f.name))] };
  if (JSON.stringify(spec) === JSON.stringify(stored)) return undefined;
  return { spec, added: standard.fields.filter((f) => !storedNames.has(f.name)) };
}

/** The standard objects' system names and numbers (as text), lowercase. */
export const STANDARD_OBJECT_REFS: ReadonlySet<string> = new Set(STANDARD_OBJECT_SPECS.flatMap((s) => [s.systemName, String(s.objectType)]));

/**
 * Refuses, with OBJECT_UNKNOWN, a reference that names no object any organization could have: a
 * standard object's system name or number, or a custom object's (customobject1000, or 1000 and up).
 * For what applies to every organization (a fault rule without orgId), where no schema is at hand.
 */
export function checkAnyOrganizationObject(ref: string): void {
  // As a request names it (a rule compares the text): no spaces, no leading zeros.
  const key = ref.toLowerCase();
  const custom = /^(?:customobject)?([1-9]\d*)$/.exec(key);
  if (STANDARD_OBJECT_REFS.has(key) || (custom !== null && Number(custom[1]) >= FIRST_CUSTOM_OBJECT)) return;
  const near = suggestName(key, STANDARD_OBJECT_SPECS.map((s) => s.systemName));
  throw new AppError('OBJECT_UNKNOWN', `No organization has an object '${ref}'.${near ? ` Did you mean '${near}'?` : ''} Name a standard object by system name or number ('account' or 1), or a custom one as customobject1000 or 1000.`);
}
