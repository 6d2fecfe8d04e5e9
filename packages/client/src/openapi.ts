// Generated from Orchard's OpenAPI document (/openapi.json) by openapi-typescript: do not edit.
// Regenerate with `npm run client:types`; test/client/client.test.ts fails when it is stale.

export interface paths {
    "/api/changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The change feed: the organization's writes after a cursor, oldest first
         * @description Every create, update and delete of records (API, imports, fixtures, the CLI), each once and in the order the writes committed, with a cursor for the next page. A client that follows the cursor misses nothing and sees nothing twice. A cursor whose entries are no longer kept (older than the retention, or the organization was restored or reset) answers 410 CHANGES_CURSOR_EXPIRED: read the records again.
         */
        get: operations["listChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The token's organization and user, with the user's role */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/objects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The objects the plan includes, with what the token's role may do to each and its record count */
        get: operations["listObjectsWithCounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/objects/{ot}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One object with its record count and its fields as the token's role sees them: types, picklist codes, lookup targets, what it may write */
        get: operations["describeObject"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Query records of an object: fields, filter, sort and page */
        post: operations["queryRecords"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/record/{obj}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List records of an object, newest first */
        get: operations["listRecords"];
        put?: never;
        /**
         * Create a record
         * @description Body: a flat map of field names to values. The key may be sent to choose the id. 201 with Location.
         */
        post: operations["createRecord"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/record/{obj}/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one record (as a one-record page, plus Record)
         * @description The reply carries the record's ETag; with If-None-Match naming it, 304 and no body; with If-Match not naming it, 412.
         */
        get: operations["getRecord"];
        /**
         * Update a record (partial: only the fields sent change)
         * @description With If-Match, only if the record is still the version its ETag names (else 412). The reply carries the new ETag.
         */
        put: operations["updateRecord"];
        post?: never;
        /**
         * Delete a record
         * @description With If-Match, only if the record is still the version its ETag names (else 412).
         */
        delete: operations["deleteRecord"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/record/{obj}/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A record's history: its change-log entries, newest first
         * @description Each create, update and delete of the record, with the fields it changed (old and new values; those hidden from your role left out), who and when. A deleted record keeps its history. Entries older than the retention (CHANGELOG_RETENTION_DAYS) are pruned.
         */
        get: operations["getRecordHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/record/{obj}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export every record of an object as CSV or NDJSON (streamed)
         * @description The fields the role may read, every record in key order. A reply cut short (the request time limit, a store failure) ends without its last chunk, so clients see an incomplete transfer.
         */
        get: operations["exportRecords"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/record/{obj}/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import records from a CSV or NDJSON body (streamed)
         * @description Creates a record per line as POST /api/record would (create permission, the role's field rules, the body checks; the plan must include batches); refused lines are reported by line number (the first 1000) and the others written. Content-Type text/csv or application/x-ndjson, or ?format.
         */
        post: operations["importRecords"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's use of its limits: the rolling minute and the UTC day against their quotas, the requests of the last 30 days, the usage notices sent. Not counted against the limits. */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/record/{ot}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a record (v2 reply); on object 58, define a custom object
         * @description Body: a flat map of field names to values. On object 58, {name, collectionname} defines a custom object, numbered from 1000; record.objecttypecode is its number.
         */
        post: operations["createRecordV2"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/record/{ot}/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Update a record (partial; v2 reply)
         * @description With If-Match, only if the record is still the version its ETag names (else 412). The reply carries the new ETag.
         */
        put: operations["updateRecordV2"];
        post?: never;
        /**
         * Delete a record (v2 reply)
         * @description With If-Match, only if the record is still the version its ETag names (else 412).
         */
        delete: operations["deleteRecordV2"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/record/{ot}/{id}/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the files on a record, oldest first */
        get: operations["listFiles"];
        put?: never;
        /**
         * Attach a file to a record
         * @description multipart/form-data with the file in a part named 'file' (other parts are ignored); at most 20 MB. Needs update on the object.
         */
        post: operations["attachFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/record/{ot}/{id}/files/{fileId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a file of a record
         * @description The content as stored, with its content type and Content-Disposition: attachment naming the file.
         */
        get: operations["downloadFile"];
        put?: never;
        post?: never;
        /** Remove a file from a record */
        delete: operations["removeFile"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/system-field/{ot}/{type}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add a custom field to an object
         * @description type: text, emailaddress (email), url, phonenumber (telephone), number, textarea, html, date, datetime, lookup, picklist. Body: {label?, fieldName?} plus precision (number), relatedObjectType or relatedObjectId (lookup), or options [{label, value}] or values [{name, value}] (picklist). Without fieldName the field is named pcfsystemfield{N}, without label it is labelled with its name; a type that needs nothing more (text, number, date…) may be added with no body.
         */
        post: operations["addField"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/views/{ot}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An object's views: its default view of all records, then those defined */
        get: operations["listViews"];
        put?: never;
        /** Define a view of an object: a named saved query (admin role) */
        post: operations["defineView"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/views/{ot}/{viewId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A page of a view's records, in the query payload of /api/query */
        post: operations["runView"];
        /** Delete a defined view (admin role); the default view stays */
        delete: operations["deleteView"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Query records (v3 body): fields, grouped conditions, order and page; or groups with SUM, COUNT, MIN, MAX
         * @description Operators: eq, ne, lt, gt, le, ge, start-with, not-start-with, end-with, not-end-with, is-null, is-not-null, eq-in, not-in, between, userid. Filter groups hold together (AND); a group joins its conditions by its type (AND or OR). Every row carries _id. With groupBy (or a field with aggrFunc), each row is a group: the groupBy fields, then each aggregate under its alias, and no _id.
         */
        post: operations["queryRecordsV3"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/record/{obj}/batch/create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create up to 500 records; invalid ones are skipped and reported */
        post: operations["batchCreateRecords"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/record/{obj}/batch/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Delete up to 500 records; missing ones are reported */
        post: operations["batchDeleteRecords"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v3/record/{obj}/batch/update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Update up to 500 records (partial); invalid or missing ones are skipped and reported */
        post: operations["batchUpdateRecords"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's webhooks, oldest first (admin role) */
        get: operations["listWebhooks"];
        put?: never;
        /** Make a webhook; the reply shows its signing secret, this once (admin role) */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One webhook (admin role) */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /** Delete a webhook with its delivery log; its pending deliveries are not made (admin role) */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A webhook's delivery log, newest first, of every state or of one: state, attempts, last status and error, duration (admin role) */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries/{deliveryId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a failed delivery again: pending, due now, its attempts counted from 0 (admin role); 404 DELIVERY_NOT_FOUND, 409 DELIVERY_NOT_FAILED */
        post: operations["retryWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Make a webhook disabled for failing active again (admin role) */
        post: operations["enableWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Give a webhook a new signing secret, shown this once; the one replaced signs beside it for `expiresInHours` (admin role) */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send the webhook a test event (type webhook.test, of no record) through its outbox: signed, retried and logged as any delivery (admin role); 202 with it, pending; 409 WEBHOOK_DISABLED */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metadata/records": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The objects of the organization that its plan includes */
        get: operations["listObjects"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metadata/records/{ot}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One object, with its key and primary field */
        get: operations["getObject"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metadata/records/{ot}/fields": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The object's fields (those hidden from the caller's role left out) */
        get: operations["listFields"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metadata/records/{ot}/fields/{field}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One field, with the object a lookup refers to */
        get: operations["getField"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metadata/records/{ot}/fields/{field}/values": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One field and its picklist values (empty for other types) */
        get: operations["getFieldValues"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: never;
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listChanges: {
        parameters: {
            query?: {
                /**
                 * @description Only this object's entries (system name or number); every object you may read when absent. Not crmuser, whose records are never logged (400).
                 * @example account
                 */
                objecttype?: string;
                /** @description Entries per page; default 100; larger values are served as 500. */
                pagesize?: number;
                /**
                 * @description Where to start: the Cursor of the previous page; `now` for no entries and a cursor at the end of the log (take it before reading the records to start a sync); absent, from the oldest entry kept.
                 * @example now
                 */
                since?: string;
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the feed and the cursor to follow. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description Opaque: send it as `since` for the entries after these. Stable across restarts and processes. */
                            Cursor: string;
                            /** @description Oldest first; of the objects you may read, their hidden fields left out. */
                            Entries: {
                                /** @description When, on the organization's clock: YYYY-MM-DDThh:mm:ss, UTC; null on a create or update when your role hides the record's modifiedon (or a create's createdon), whose value it is. */
                                changedon: string | null;
                                /** @description The fields the write changed: name → {old, new} (null: empty). A create lists the fields it set, a delete those the record had. Fields hidden from your role are left out. */
                                fields: {
                                    [key: string]: {
                                        /** @description The value after: a string, a number or null. */
                                        new?: unknown;
                                        /** @description The value before: a string, a number or null. */
                                        old?: unknown;
                                    };
                                };
                                /** @description The object's system name. */
                                object: string;
                                objecttype: number;
                                /** @enum {string} */
                                operation: "create" | "update" | "delete";
                                recordid: string;
                                /** @description Orders the organization's entries as their writes committed (numbers may skip). */
                                sequence: number;
                                /** @description Who: a user of the organization; null for a write no user made, and on a create or update when your role hides modifiedby (or a create's createdby), whose value it is. */
                                userid: string | null;
                            }[];
                            /** @description true when more entries follow already: ask again at once; false when the log was read to its end. */
                            HasMore: boolean;
                        };
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: `since` is not a cursor of this server (CHANGES_CURSOR_INVALID), pagesize is not a whole number ≥ 1, or objecttype is crmuser, whose records are never logged (PARAM_INVALID). */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user lacks the permission on this object, or a field asked for is hidden from it; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The cursor can no longer be followed (CHANGES_CURSOR_EXPIRED): read the records again and follow a new cursor from since=now. */
            410: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    getMe: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: the envelope {success, data, message}. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            organization: {
                                /** @description Requests per UTC day (the plan's). */
                                dailyCap: number;
                                id: string;
                                /** @description Requests in any 60 s. */
                                minuteLimit: number;
                                name: string;
                                plan: string;
                            };
                            user: {
                                email: string;
                                fullname: string;
                                id: string;
                                role: string;
                            };
                        };
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user lacks the permission on this object, or a field asked for is hidden from it; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    listObjectsWithCounts: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: the envelope {success, data, message}. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            collectionName: string;
                            name: string;
                            objectType: number;
                            /** @description What the plan and the token's role allow on its records. */
                            permissions: ("read" | "create" | "update" | "delete")[];
                            primaryField: string;
                            primaryKey: string;
                            /** @description Its records cannot be written through the API (crmuser). */
                            readOnly: boolean;
                            /** @description How many records it has; null when the role may not read it. */
                            records: number | null;
                            systemName: string;
                        }[];
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user lacks the permission on this object, or a field asked for is hidden from it; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    describeObject: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Object system name in any case (account) or number (1).
                 * @example account
                 */
                ot: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: the envelope {success, data, message}. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            collectionName: string;
                            /** @description Fields hidden from the role are left out. */
                            fields: {
                                /** @description For the name field of a lookup: the lookup. */
                                derivedFrom?: string;
                                /** @description Present when a create may leave the field out: the server fills it (ownerid: the caller; statecode, statuscode: 1). */
                                hasDefault?: boolean;
                                label: string;
                                /** @description Characters, for text-like types. */
                                maxLength: number | null;
                                name: string;
                                /** @description A picklist's codes. */
                                options?: {
                                    label: string;
                                    value: number;
                                }[];
                                /** @description Decimal places of a number. */
                                precision?: number;
                                /** @description Not written by clients: the key, a system or derived field, or read-only for the role. */
                                readOnly: boolean;
                                /** @description Every record holds a value: an update cannot clear it, and a create must send one unless hasDefault. */
                                required: boolean;
                                /** @description The object a lookup refers to. */
                                target?: {
                                    objectType: number;
                                    primaryField: string;
                                    primaryKey: string;
                                    systemName: string;
                                };
                                /** @enum {string} */
                                type: "text" | "number" | "date" | "datetime" | "picklist" | "lookup" | "email" | "telephone" | "url" | "textarea" | "html";
                            }[];
                            name: string;
                            objectType: number;
                            /** @description What the plan and the token's role allow on its records. */
                            permissions: ("read" | "create" | "update" | "delete")[];
                            primaryField: string;
                            primaryKey: string;
                            /** @description Its records cannot be written through the API (crmuser). */
                            readOnly: boolean;
                            /** @description How many records it has; null when the role may not read it. */
                            records: number | null;
                            systemName: string;
                        };
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user lacks the permission on this object, or a field asked for is hidden from it; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    queryRecords: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "objecttype": 1,
                 *       "fields": "accountid,accountname,billingcity",
                 *       "query": "accountname start-with 'A'",
                 *       "sort_by": "accountname",
                 *       "sort_type": "asc",
                 *       "page_size": 10,
                 *       "page_number": 1
                 *     }
                 */
                "application/json": {
                    /** @description Comma-separated field names (related fields such as primarycontactid_fullname too), in the order wanted, or '*' (default). */
                    fields?: string;
                    /** @description Object number (1), digit string ('1') or system name ('account'). */
                    objecttype?: string | number;
                    /** @description Page to return; 1 is the first. */
                    page_number?: string | number;
                    /** @description Rows per page, 1–500; default 50; larger values are served as 500. */
                    page_size?: string | number;
                    /** @description Filter, e.g. (statecode = 1 AND accountname start-with 'Ac') OR (createdon >= '2025-01-01'). */
                    query?: string;
                    /** @description 1 (or true): picklist fields come back as their labels ('Active') instead of their codes; 0, false or absent: codes. */
                    show_real_value?: string | number | boolean;
                    /** @description Field to sort by; default createdon. Ties are broken by the key. */
                    sort_by?: string;
                    /** @description 'asc' (default) or 'desc', any case. */
                    sort_type?: string;
                };
            };
        };
        responses: {
            /** @description Success: the envelope {success, data, message}. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            Columns: {
                                fieldname: string;
                                fieldobjecttype: number | null;
                                isprimaryfield: boolean;
                                isreadonly: boolean;
                                isrequired: boolean;
                                maxlength: number | null;
                                name: string;
                                systemfieldtypeid: string;
                            }[];
                            Data: {
                                [key: string]: unknown;
                            }[];
                            IsLastPage: boolean;
                            ObjectName: string;
                            ObjectType: number;
                            PageNum: number;
                            PrimaryField: string;
                            PrimaryKey: string;
                            SortBy: string;
                            SortBy_Desc: boolean;
                            SystemName: string;
                        };
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user lacks the permission on this object, or a field asked for is hidden from it; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    listRecords: {
        parameters: {
            query?: {
                /** @description Page to return; 1 is the first. */
                pagenumber?: number;
                /** @description Records per page; default 50; larger values are served as 50. */
                pagesize?: number;
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Object system name in any case (account) or number (1).
                 * @example account
                 */
                obj: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            Page_Number: number;
                            Page_Size: number;
                            PrimaryField: string;
                            PrimaryKey: string;
                            /** @description A record: field system name → value (string, number or null). Every field of the object is present. */
                            Record?: {
                                [key: string]: unknown;
                            };
                            Records: {
                                [key: string]: unknown;
                            }[];
                            Total_Records: number;
                        };
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user lacks the permission on this object, or a field asked for is hidden from it; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    createRecord: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Object system name in any case (account) or number (1).
                 * @example account
                 */
                obj: string;
            };
            cookie?: never;
        };
        /** @description A record: field system name → value (string, number or null). */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "accountname": "Acme Ltd",
                 *       "emailaddress1": "hello@acme.example",
                 *       "telephone1": "+1 555 0100",
                 *       "accounttypecode": 1
                 *     }
                 */
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Created; Location names the new record, ETag its version. */
            201: {
                headers: {
                    /** @description The record's strong entity tag as the caller sees it: send it back in If-Match (PUT, DELETE, GET) or If-None-Match (GET: 304; PUT, DELETE: 412). Absent from a write's reply when your role may not read the object. */
                    ETag?: string;
                    /** @description The new record's API URL: {BASE_URL}/api/record/{system name}/{id}. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description A record: field system name → value (string, number or null). Every field of the object is present. */
                            Record: {
                                [key: string]: unknown;
                            };
                        };
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user may not do this to this object, or a field sent is hidden or read-only for it, or the object is read-only through the API; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    getRecord: {
        parameters: {
            query?: {
                /** @description Page to return; 1 is the first. */
                pagenumber?: number;
                /** @description Records per page; default 50; larger values are served as 50. */
                pagesize?: number;
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: {
                /** @description Read only this version (its ETag, or *): 412 RECORD_CHANGED when the record is no longer that version. Evaluated before If-None-Match. */
                "if-match"?: string;
                /**
                 * @description The ETag of the version the client holds (or *): 304 when the record is still that version.
                 * @example "q7yJd2WZ4m1fQm3lB0xk9A"
                 */
                "if-none-match"?: string;
            };
            path: {
                /**
                 * @description Record id: an RFC 4122 UUID.
                 * @example 3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f
                 */
                id: string;
                /**
                 * @description Object system name in any case (account) or number (1).
                 * @example account
                 */
                obj: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record, as a one-record page and as Record. */
            200: {
                headers: {
                    /** @description The record's strong entity tag as the caller sees it: send it back in If-Match (PUT, DELETE, GET) or If-None-Match (GET: 304; PUT, DELETE: 412). Absent from a write's reply when your role may not read the object. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            Page_Number: number;
                            Page_Size: number;
                            PrimaryField: string;
                            PrimaryKey: string;
                            /** @description A record: field system name → value (string, number or null). Every field of the object is present. */
                            Record?: {
                                [key: string]: unknown;
                            };
                            Records: {
                                [key: string]: unknown;
                            }[];
                            Total_Records: number;
                        };
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Not modified: the record is still the version If-None-Match names. */
            304: {
                headers: {
                    /** @description The record's strong entity tag as the caller sees it: send it back in If-Match (PUT, DELETE, GET) or If-None-Match (GET: 304; PUT, DELETE: 412). Absent from a write's reply when your role may not read the object. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user lacks the permission on this object, or a field asked for is hidden from it; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description If-Match names an ETag the record no longer has: it changed since it was read. GET it again and retry with its new ETag. */
            412: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    updateRecord: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: {
                /**
                 * @description Write only if the record is still this version: its ETag from a GET (or *: any version). Otherwise 412 RECORD_CHANGED and nothing is written. A role that may not read the object may send only * (else 403).
                 * @example "q7yJd2WZ4m1fQm3lB0xk9A"
                 */
                "if-match"?: string;
                /**
                 * @description Write only if the record is no longer this version (its ETag, weak comparison), or with *: only if no record has the id. Otherwise 412 RECORD_MATCHES and nothing is written. Evaluated after If-Match.
                 * @example *
                 */
                "if-none-match"?: string;
            };
            path: {
                /**
                 * @description Record id: an RFC 4122 UUID.
                 * @example 3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f
                 */
                id: string;
                /**
                 * @description Object system name in any case (account) or number (1).
                 * @example account
                 */
                obj: string;
            };
            cookie?: never;
        };
        /** @description A record: field system name → value (string, number or null). */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "telephone1": "+1 555 0199"
                 *     }
                 */
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Updated; the whole record as it now is. */
            200: {
                headers: {
                    /** @description The record's strong entity tag as the caller sees it: send it back in If-Match (PUT, DELETE, GET) or If-None-Match (GET: 304; PUT, DELETE: 412). Absent from a write's reply when your role may not read the object. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description A record: field system name → value (string, number or null). Every field of the object is present. */
                            Record: {
                                [key: string]: unknown;
                            };
                        };
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user may not do this to this object, or a field sent is hidden or read-only for it, or the object is read-only through the API; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description If-Match names an ETag the record no longer has: it changed since it was read (RECORD_CHANGED); GET it again and retry with its new ETag. Or If-None-Match names the ETag it has, or is * and the record exists (RECORD_MATCHES). */
            412: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    deleteRecord: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: {
                /**
                 * @description Write only if the record is still this version: its ETag from a GET (or *: any version). Otherwise 412 RECORD_CHANGED and nothing is written. A role that may not read the object may send only * (else 403).
                 * @example "q7yJd2WZ4m1fQm3lB0xk9A"
                 */
                "if-match"?: string;
                /**
                 * @description Write only if the record is no longer this version (its ETag, weak comparison), or with *: only if no record has the id. Otherwise 412 RECORD_MATCHES and nothing is written. Evaluated after If-Match.
                 * @example *
                 */
                "if-none-match"?: string;
            };
            path: {
                /**
                 * @description Record id: an RFC 4122 UUID.
                 * @example 3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f
                 */
                id: string;
                /**
                 * @description Object system name in any case (account) or number (1).
                 * @example account
                 */
                obj: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; data is null. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {object|null} */
                        data: never | null;
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user may not do this to this object, or a field sent is hidden or read-only for it, or the object is read-only through the API; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description If-Match names an ETag the record no longer has: it changed since it was read (RECORD_CHANGED); GET it again and retry with its new ETag. Or If-None-Match names the ETag it has, or is * and the record exists (RECORD_MATCHES). */
            412: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    getRecordHistory: {
        parameters: {
            query?: {
                /** @description Only the entries numbered below this `sequence`: send the last entry's `sequence` of a page (with pagenumber 1) for the next one, which writes made meanwhile do not shift. */
                before?: number;
                /** @description Page to return; 1 is the first. */
                pagenumber?: number;
                /** @description Records per page; default 50; larger values are served as 50. */
                pagesize?: number;
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Record id: an RFC 4122 UUID.
                 * @example 3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f
                 */
                id: string;
                /**
                 * @description Object system name in any case (account) or number (1).
                 * @example account
                 */
                obj: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the record's entries, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            Entries: {
                                /** @description When, on the organization's clock: YYYY-MM-DDThh:mm:ss, UTC; null on a create or update when your role hides the record's modifiedon (or a create's createdon), whose value it is. */
                                changedon: string | null;
                                /** @description The fields the write changed: name → {old, new} (null: empty). A create lists the fields it set, a delete those the record had. Fields hidden from your role are left out. */
                                fields: {
                                    [key: string]: {
                                        /** @description The value after: a string, a number or null. */
                                        new?: unknown;
                                        /** @description The value before: a string, a number or null. */
                                        old?: unknown;
                                    };
                                };
                                /** @description The object's system name. */
                                object: string;
                                objecttype: number;
                                /** @enum {string} */
                                operation: "create" | "update" | "delete";
                                recordid: string;
                                /** @description Orders the organization's entries as their writes committed (numbers may skip). */
                                sequence: number;
                                /** @description Who: a user of the organization; null for a write no user made, and on a create or update when your role hides modifiedby (or a create's createdby), whose value it is. */
                                userid: string | null;
                            }[];
                            /** @description true when no older entries follow. */
                            IsLastPage: boolean;
                            ObjectType: number;
                            Page_Number: number;
                            Page_Size: number;
                            RecordId: string;
                            SystemName: string;
                        };
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user lacks the permission on this object, or a field asked for is hidden from it; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    exportRecords: {
        parameters: {
            query?: {
                /** @description csv (a header row of field names; the default) or ndjson (one JSON object a line). */
                format?: "csv" | "ndjson";
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Object system name in any case (account) or number (1).
                 * @example account
                 */
                obj: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The records as the format asks: text/csv (a header line, then a line a record) or application/x-ndjson (a JSON object a line); Content-Disposition: attachment. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": string;
                    "text/csv": string;
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user lacks the permission on this object, or a field asked for is hidden from it; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    importRecords: {
        parameters: {
            query?: {
                /** @description csv (a header row of field names; the default) or ndjson (one JSON object a line). */
                format?: "csv" | "ndjson";
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Object system name in any case (account) or number (1).
                 * @example account
                 */
                obj: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-ndjson": string;
                "text/csv": string;
            };
        };
        responses: {
            /** @description What was created, and each refused line. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            created?: number;
                            errors?: {
                                code?: string;
                                line?: number;
                                message?: string;
                            }[];
                            failed?: number;
                            object?: string;
                        };
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user may not do this to this object, or a field sent is hidden or read-only for it, or the object is read-only through the API; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    getUsage: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: the envelope {success, data, message}. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @example {
                         *       "counted": true,
                         *       "minute": {
                         *         "quota": 100,
                         *         "used": 12,
                         *         "remaining": 88,
                         *         "resetSeconds": 41
                         *       },
                         *       "day": {
                         *         "quota": 10000,
                         *         "used": 1520,
                         *         "remaining": 8480,
                         *         "resetSeconds": 30512,
                         *         "day": "2026-03-01"
                         *       },
                         *       "days": [
                         *         {
                         *           "day": "2026-02-28",
                         *           "count": 9120
                         *         },
                         *         {
                         *           "day": "2026-03-01",
                         *           "count": 1520
                         *         }
                         *       ],
                         *       "notices": [
                         *         {
                         *           "day": "2026-02-28",
                         *           "threshold": 90,
                         *           "used": 9000,
                         *           "cap": 10000,
                         *           "claimedAt": "2026-02-28T17:02:11.000Z",
                         *           "sentAt": "2026-02-28T17:02:12.000Z"
                         *         }
                         *       ]
                         *     }
                         */
                        data: {
                            /** @description false when the server counts nothing (RATE_LIMITS off): the rest is then empty. */
                            counted: boolean;
                            /** @description The UTC day and its cap. */
                            day: {
                                /** @description The UTC day, YYYY-MM-DD. */
                                day: string;
                                quota: number;
                                remaining: number;
                                /** @description Seconds until the window gives quota back (the t of the RateLimit field). */
                                resetSeconds: number;
                                /** @description Requests counted in the window now. */
                                used: number;
                            } | null;
                            /** @description Requests counted on each of the last 30 UTC days, oldest first, the current day last. */
                            days: {
                                count: number;
                                day: string;
                            }[];
                            /** @description The rolling minute. */
                            minute: {
                                quota: number;
                                remaining: number;
                                /** @description Seconds until the window gives quota back (the t of the RateLimit field). */
                                resetSeconds: number;
                                /** @description Requests counted in the window now. */
                                used: number;
                            } | null;
                            /** @description The usage notices of those days (90 % and 100 % of the cap), newest first. */
                            notices: {
                                cap: number;
                                /** Format: date-time */
                                claimedAt: string;
                                day: string;
                                /**
                                 * Format: date-time
                                 * @description null while not sent.
                                 */
                                sentAt: string | null;
                                threshold: number;
                                used: number;
                            }[];
                        };
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user lacks the permission on this object, or a field asked for is hidden from it; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    createRecordV2: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Object system name in any case (account) or number (1).
                 * @example account
                 */
                ot: string;
            };
            cookie?: never;
        };
        /** @description A record: field system name → value (string, number or null). */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "accountname": "Acme Ltd",
                 *       "emailaddress1": "hello@acme.example",
                 *       "telephone1": "+1 555 0100",
                 *       "accounttypecode": 1
                 *     }
                 */
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Created: the record as stored, and its id; ETag its version (not for an object defined). */
            200: {
                headers: {
                    /** @description The record's strong entity tag as the caller sees it: send it back in If-Match (PUT, DELETE, GET) or If-None-Match (GET: 304; PUT, DELETE: 412). Absent from a write's reply when your role may not read the object. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        _id: string;
                        /** @description A record: field system name → value (string, number or null). Every field of the object is present. */
                        record: {
                            [key: string]: unknown;
                        };
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user may not do this to this object, or a field sent is hidden or read-only for it, or the object is read-only through the API; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    updateRecordV2: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: {
                /**
                 * @description Write only if the record is still this version: its ETag from a GET (or *: any version). Otherwise 412 RECORD_CHANGED and nothing is written. A role that may not read the object may send only * (else 403).
                 * @example "q7yJd2WZ4m1fQm3lB0xk9A"
                 */
                "if-match"?: string;
                /**
                 * @description Write only if the record is no longer this version (its ETag, weak comparison), or with *: only if no record has the id. Otherwise 412 RECORD_MATCHES and nothing is written. Evaluated after If-Match.
                 * @example *
                 */
                "if-none-match"?: string;
            };
            path: {
                /**
                 * @description Record id: an RFC 4122 UUID.
                 * @example 3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f
                 */
                id: string;
                /**
                 * @description Object system name in any case (account) or number (1).
                 * @example account
                 */
                ot: string;
            };
            cookie?: never;
        };
        /** @description A record: field system name → value (string, number or null). */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "telephone1": "+1 555 0199"
                 *     }
                 */
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Updated: the whole record as it now is. */
            200: {
                headers: {
                    /** @description The record's strong entity tag as the caller sees it: send it back in If-Match (PUT, DELETE, GET) or If-None-Match (GET: 304; PUT, DELETE: 412). Absent from a write's reply when your role may not read the object. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        _id: string;
                        /** @description A record: field system name → value (string, number or null). Every field of the object is present. */
                        record: {
                            [key: string]: unknown;
                        };
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user may not do this to this object, or a field sent is hidden or read-only for it, or the object is read-only through the API; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description If-Match names an ETag the record no longer has: it changed since it was read (RECORD_CHANGED); GET it again and retry with its new ETag. Or If-None-Match names the ETag it has, or is * and the record exists (RECORD_MATCHES). */
            412: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    deleteRecordV2: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: {
                /**
                 * @description Write only if the record is still this version: its ETag from a GET (or *: any version). Otherwise 412 RECORD_CHANGED and nothing is written. A role that may not read the object may send only * (else 403).
                 * @example "q7yJd2WZ4m1fQm3lB0xk9A"
                 */
                "if-match"?: string;
                /**
                 * @description Write only if the record is no longer this version (its ETag, weak comparison), or with *: only if no record has the id. Otherwise 412 RECORD_MATCHES and nothing is written. Evaluated after If-Match.
                 * @example *
                 */
                "if-none-match"?: string;
            };
            path: {
                /**
                 * @description Record id: an RFC 4122 UUID.
                 * @example 3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f
                 */
                id: string;
                /**
                 * @description Object system name in any case (account) or number (1).
                 * @example account
                 */
                ot: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted: the id of the record deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        _id: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user may not do this to this object, or a field sent is hidden or read-only for it, or the object is read-only through the API; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description If-Match names an ETag the record no longer has: it changed since it was read (RECORD_CHANGED); GET it again and retry with its new ETag. Or If-None-Match names the ETag it has, or is * and the record exists (RECORD_MATCHES). */
            412: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    listFiles: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Record id: an RFC 4122 UUID.
                 * @example 3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f
                 */
                id: string;
                /**
                 * @description Object system name in any case (account) or number (1).
                 * @example account
                 */
                ot: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record's files. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description The part's content type as sent, or application/octet-stream. */
                            contenttype: string;
                            /** @description The user who attached it. */
                            createdby: string;
                            /** @description When it was attached (UTC, YYYY-MM-DDThh:mm:ss). */
                            createdon: string;
                            /** @description The file's id (UUID). */
                            fileid: string;
                            /** @description The name sent, made safe: its last path segment, no control characters, at most 255 characters. */
                            filename: string;
                            /** @description The record the file is on. */
                            objectid: string;
                            /** @description That record's object number. */
                            objecttypecode: number;
                            /** @description Bytes. */
                            size: number;
                        }[];
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user lacks the permission on this object, or a field asked for is hidden from it; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    attachFile: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Record id: an RFC 4122 UUID.
                 * @example 3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f
                 */
                id: string;
                /**
                 * @description Object system name in any case (account) or number (1).
                 * @example account
                 */
                ot: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The file; its filename and content type are kept.
                     */
                    file: string;
                } | null;
            };
        };
        responses: {
            /** @description Attached: the file's id and what was kept. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        _id: string;
                        /** @description A file on a record. */
                        file: {
                            /** @description The part's content type as sent, or application/octet-stream. */
                            contenttype: string;
                            /** @description The user who attached it. */
                            createdby: string;
                            /** @description When it was attached (UTC, YYYY-MM-DDThh:mm:ss). */
                            createdon: string;
                            /** @description The file's id (UUID). */
                            fileid: string;
                            /** @description The name sent, made safe: its last path segment, no control characters, at most 255 characters. */
                            filename: string;
                            /** @description The record the file is on. */
                            objectid: string;
                            /** @description That record's object number. */
                            objecttypecode: number;
                            /** @description Bytes. */
                            size: number;
                        };
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user may not do this to this object, or a field sent is hidden or read-only for it, or the object is read-only through the API; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    downloadFile: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /** @description File id (UUID). */
                fileId: string;
                /**
                 * @description Record id: an RFC 4122 UUID.
                 * @example 3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f
                 */
                id: string;
                /**
                 * @description Object system name in any case (account) or number (1).
                 * @example account
                 */
                ot: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file's content, in the content type it was uploaded with. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user lacks the permission on this object, or a field asked for is hidden from it; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    removeFile: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /** @description File id (UUID). */
                fileId: string;
                /**
                 * @description Record id: an RFC 4122 UUID.
                 * @example 3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f
                 */
                id: string;
                /**
                 * @description Object system name in any case (account) or number (1).
                 * @example account
                 */
                ot: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed; data is null. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {object|null} */
                        data: never | null;
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user may not do this to this object, or a field sent is hidden or read-only for it, or the object is read-only through the API; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    addField: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Object system name in any case (account) or number (1).
                 * @example account
                 */
                ot: string;
                /** @example picklist */
                type: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "label": "Severity",
                 *       "options": [
                 *         {
                 *           "label": "Low",
                 *           "value": 1
                 *         },
                 *         {
                 *           "label": "High",
                 *           "value": 2
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    /** @description The field's name: starts with pcf, letters, digits and _; default pcfsystemfield{N}. */
                    fieldName?: string;
                    /** @description The label (at most 200 characters); default: the field name. */
                    label?: string;
                    /** @description text-like types: the maximum length, up to the type's default. */
                    maxLength?: number;
                    /** @description picklist: [{label, value}], value a whole number ≥ 0 (default: position + 1); order and color are ignored. */
                    options?: {
                        label: string;
                        value?: number;
                    }[];
                    /** @description number: decimal places, 0–10 (default 2). */
                    precision?: number;
                    /** @description lookup, as other clients spell it: the same as relatedObjectType. */
                    relatedObjectId?: number | string;
                    /** @description lookup: the number or system name of the object it refers to. */
                    relatedObjectType?: number | string;
                    /** @description picklist, as other clients spell it: [{name, value}], value a digit string; send it or 'options', not both. */
                    values?: {
                        name: string;
                        value?: string;
                    }[];
                } | null;
            };
        };
        responses: {
            /** @description Success: the envelope {success, data, message}. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            systemField: {
                                fieldname: string;
                            }[];
                        };
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user may not do this to this object, or a field sent is hidden or read-only for it, or the object is read-only through the API; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    listViews: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Object system name in any case (account) or number (1).
                 * @example account
                 */
                ot: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: the envelope {success, data, message}. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description When it was defined (UTC); null for a default view. */
                            createdon: string | null;
                            /** @description Comma-separated field names, or '*': every field the caller may read. */
                            fields: string;
                            /** @description The object's view of all its records, which every object has. */
                            isDefault: boolean;
                            name: string;
                            objectType: number;
                            /** @description The filter, in the filter language of /api/query; null for every record. */
                            query: string | null;
                            sortBy: {
                                fieldName: string;
                                /** @enum {string} */
                                type: "asc" | "desc";
                            };
                            /** @description The view's id, a UUID; an object's default view has 00000000-0000-4000-8000-{object number, 12 digits}. */
                            viewId: string;
                        }[];
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user may not do this to this object, or a field sent is hidden or read-only for it, or the object is read-only through the API; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no view of the object has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    defineView: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Object system name in any case (account) or number (1).
                 * @example account
                 */
                ot: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Comma-separated field names, an array of names or of {name}, or '*' (default). */
                    fields?: unknown;
                    /** @description The view's name: unique among the object's views (any case), at most 200 characters. */
                    name?: unknown;
                    /** @description A filter in the filter language of /api/query, e.g. "billingcity = 'Lisbon'"; default: every record. */
                    query?: unknown;
                    /** @description {fieldName, type: asc or desc}; default createdon, descending. */
                    sortBy?: unknown;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Success: the envelope {success, data, message}. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description When it was defined (UTC); null for a default view. */
                            createdon: string | null;
                            /** @description Comma-separated field names, or '*': every field the caller may read. */
                            fields: string;
                            /** @description The object's view of all its records, which every object has. */
                            isDefault: boolean;
                            name: string;
                            objectType: number;
                            /** @description The filter, in the filter language of /api/query; null for every record. */
                            query: string | null;
                            sortBy: {
                                fieldName: string;
                                /** @enum {string} */
                                type: "asc" | "desc";
                            };
                            /** @description The view's id, a UUID; an object's default view has 00000000-0000-4000-8000-{object number, 12 digits}. */
                            viewId: string;
                        };
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user may not do this to this object, or a field sent is hidden or read-only for it, or the object is read-only through the API; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no view of the object has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    runView: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Object system name in any case (account) or number (1).
                 * @example account
                 */
                ot: string;
                /** @description The view's id, or 'default' for the object's default view. */
                viewId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": ({
                    /** @description Taken only empty ([]): conditions are not added to a view when it is run. */
                    conditionGroups?: unknown;
                    /** @description Fields to show beside the view's, for this request: names, or objects whose logicalName (else name) is read. */
                    fields?: unknown;
                    /** @description The page, from 1 (default 1). */
                    pageNumber?: unknown;
                    /** @description Records per page, 1–500 (default 50); larger is served as 500. */
                    pageSize?: unknown;
                    /** @description {fieldName, type: asc or desc}: another order than the view's, for this request. */
                    sortBy?: unknown;
                } & {
                    [key: string]: unknown;
                }) | null;
            };
        };
        responses: {
            /** @description Success: the envelope {success, data, message}. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            Columns: {
                                fieldname: string;
                                fieldobjecttype: number | null;
                                isprimaryfield: boolean;
                                isreadonly: boolean;
                                isrequired: boolean;
                                maxlength: number | null;
                                name: string;
                                systemfieldtypeid: string;
                            }[];
                            Data: {
                                [key: string]: unknown;
                            }[];
                            IsLastPage: boolean;
                            ObjectName: string;
                            ObjectType: number;
                            PageNum: number;
                            PrimaryField: string;
                            PrimaryKey: string;
                            SortBy: string;
                            SortBy_Desc: boolean;
                            SystemName: string;
                            ViewId: string;
                            ViewName: string;
                        };
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user may not do this to this object, or a field sent is hidden or read-only for it, or the object is read-only through the API; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no view of the object has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    deleteView: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Object system name in any case (account) or number (1).
                 * @example account
                 */
                ot: string;
                /** @description The view's id, or 'default' for the object's default view. */
                viewId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: the envelope {success, data, message}. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {object|null} */
                        data: never | null;
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user may not do this to this object, or a field sent is hidden or read-only for it, or the object is read-only through the API; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no view of the object has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    queryRecordsV3: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "objectType": 1,
                 *       "fields": [
                 *         {
                 *           "name": "accountname"
                 *         }
                 *       ],
                 *       "filter": [
                 *         {
                 *           "type": "AND",
                 *           "conditions": [
                 *             {
                 *               "fieldName": "accountname",
                 *               "operator": "start-with",
                 *               "value": "A"
                 *             }
                 *           ]
                 *         }
                 *       ],
                 *       "pageSize": 10
                 *     }
                 */
                "application/json": {
                    /** @description The fields wanted, in order; all when left out. In a grouped query also {name, aggrFunc, alias}, aggrFunc one of SUM, COUNT, MIN, MAX (COUNT also takes the name *). */
                    fields?: {
                        /** @enum {string} */
                        aggrFunc?: "SUM" | "COUNT" | "MIN" | "MAX";
                        alias?: string;
                        name: string;
                    }[];
                    /** @description Groups that all hold (AND); each joins its conditions by its type. */
                    filter?: {
                        conditions: {
                            fieldName: string;
                            /** @enum {string} */
                            operator: "eq" | "ne" | "lt" | "gt" | "le" | "ge" | "start-with" | "not-start-with" | "end-with" | "not-end-with" | "is-null" | "is-not-null" | "eq-in" | "not-in" | "between" | "userid";
                            /** @description A value, or an array of values for the -in operators. */
                            value?: unknown;
                        }[];
                        /** @enum {string} */
                        type?: "AND" | "OR";
                    }[];
                    /** @description Fields to group the records by; the rows are then groups. */
                    groupBy?: {
                        /**
                         * @description Date and datetime fields only: group by this period of the value (UTC).
                         * @enum {string}
                         */
                        datePeriod?: "HOUR" | "DAY" | "WEEK" | "MONTH" | "QUARTER" | "YEAR" | "HOUR_PART" | "DAY_PART" | "WEEK_PART" | "MONTH_PART" | "QUARTER_PART" | "DAY_OF_WEEK";
                        name: string;
                    }[];
                    /** @description The object's number (1) or system name (account). */
                    objectType: number | string;
                    /** @description One field; in a grouped query a groupBy field or an alias. */
                    orderBy?: {
                        name: string;
                        /** @enum {string} */
                        order?: "asc" | "desc";
                    }[];
                    pageNumber?: number;
                    pageSize?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            [key: string]: unknown;
                        }[];
                        isLastPage: boolean;
                        message: string;
                        pageNumber: number;
                        pageSize: number;
                    };
                };
            };
            /** @description Invalid request: the body, a field, an operator or a value. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description The organization's plan does not include this object or batch requests. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description The role of the token's user may not do this. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description Unknown object. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description Over the minute limit or the daily cap; Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description The server failed; the message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description The database cannot be reached, or another process held the records for writing too long; retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
        };
    };
    batchCreateRecords: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Object system name in any case (account) or number (1).
                 * @example account
                 */
                obj: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "data": [
                 *         {
                 *           "accountname": "Acme Ltd",
                 *           "accounttypecode": 1
                 *         },
                 *         {
                 *           "accountname": "Globex"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    data: {
                        [key: string]: unknown;
                    }[];
                };
            };
        };
        responses: {
            /** @description One result per item, in the order sent: written ({success: true, _id}) or skipped ({success: false, status, error, message}). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            _id?: string;
                            error?: string;
                            index: number;
                            message?: string;
                            /** @description A record: field system name → value (string, number or null). Every field of the object is present. */
                            record?: {
                                [key: string]: unknown;
                            };
                            status?: number;
                            success: boolean;
                        }[];
                        failureCount: number;
                        message: string;
                        /** @description true when every item was written. */
                        success: boolean;
                        successCount: number;
                    };
                };
            };
            /** @description Invalid request: the body, a field, an operator or a value. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description The organization's plan does not include this object or batch requests. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description The role of the token's user may not do this. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description Unknown object. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description Over the minute limit or the daily cap; Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description The server failed; the message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description The database cannot be reached, or another process held the records for writing too long; retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
        };
    };
    batchDeleteRecords: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Object system name in any case (account) or number (1).
                 * @example account
                 */
                obj: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "data": [
                 *         "3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f"
                 *       ]
                 *     }
                 */
                "application/json": {
                    data: string[];
                };
            };
        };
        responses: {
            /** @description One result per item, in the order sent: written ({success: true, _id}) or skipped ({success: false, status, error, message}). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            _id?: string;
                            error?: string;
                            index: number;
                            message?: string;
                            /** @description A record: field system name → value (string, number or null). Every field of the object is present. */
                            record?: {
                                [key: string]: unknown;
                            };
                            status?: number;
                            success: boolean;
                        }[];
                        failureCount: number;
                        message: string;
                        /** @description true when every item was written. */
                        success: boolean;
                        successCount: number;
                    };
                };
            };
            /** @description Invalid request: the body, a field, an operator or a value. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description The organization's plan does not include this object or batch requests. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description The role of the token's user may not do this. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description Unknown object. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description Over the minute limit or the daily cap; Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description The server failed; the message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description The database cannot be reached, or another process held the records for writing too long; retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
        };
    };
    batchUpdateRecords: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Object system name in any case (account) or number (1).
                 * @example account
                 */
                obj: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "data": [
                 *         {
                 *           "id": "3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f",
                 *           "record": {
                 *             "telephone1": "+1 555 0199"
                 *           }
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    data: {
                        /** Format: uuid */
                        id: string;
                        /** @description A record: field name → value (string, number or null). */
                        record: {
                            [key: string]: unknown;
                        };
                    }[];
                };
            };
        };
        responses: {
            /** @description One result per item, in the order sent: written ({success: true, _id}) or skipped ({success: false, status, error, message}). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            _id?: string;
                            error?: string;
                            index: number;
                            message?: string;
                            /** @description A record: field system name → value (string, number or null). Every field of the object is present. */
                            record?: {
                                [key: string]: unknown;
                            };
                            status?: number;
                            success: boolean;
                        }[];
                        failureCount: number;
                        message: string;
                        /** @description true when every item was written. */
                        success: boolean;
                        successCount: number;
                    };
                };
            };
            /** @description Invalid request: the body, a field, an operator or a value. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description The organization's plan does not include this object or batch requests. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description The role of the token's user may not do this. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description Unknown object. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description Over the minute limit or the daily cap; Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description The server failed; the message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
            /** @description The database cannot be reached, or another process held the records for writing too long; retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                        status: number;
                    };
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: the envelope {success, data, message}. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            disabledAt: string | null;
                            /** @enum {string} */
                            event: "created" | "updated" | "deleted";
                            /** Format: date-time */
                            failingSince: string | null;
                            /** @description Failed attempts in a row since the last success. */
                            failures: number;
                            /** @description The filter the record must match (filter language of /api/query); null: every record. */
                            filter: string | null;
                            /** @description Header fields sent with each delivery, their values masked: ****, followed by the last four characters of a value of 16 or more (deliveries send them whole). */
                            headers: {
                                [key: string]: string;
                            };
                            /** @description The webhook's id, a UUID. */
                            id: string;
                            /** @enum {string} */
                            method: "POST" | "PUT" | "PATCH";
                            /** @description The object's system name; null: every object. */
                            object: string | null;
                            objectType: number | null;
                            /**
                             * Format: date-time
                             * @description Until when the secret the last rotation replaced signs each delivery beside the current one; null when none does.
                             */
                            previousSecretExpiresAt: string | null;
                            /**
                             * @description disabled: it failed for too long (docs/webhooks.md); POST …/enable makes it active again.
                             * @enum {string}
                             */
                            status: "active" | "disabled";
                            url: string;
                        }[];
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user is not admin: only the admin role manages webhooks. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization has no webhook with that id (or, on create, the object is unknown). */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description A webhook: which event of which object, the record's filter, and where and how it is sent. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "event": "created",
                 *       "object": "account",
                 *       "url": "https://hooks.example.com/orchard",
                 *       "filter": "statecode = 1",
                 *       "headers": {
                 *         "X-Api-Key": "k-1234"
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * @description created, updated or deleted.
                     * @enum {string}
                     */
                    event: "created" | "updated" | "deleted";
                    /** @description A filter in the language of /api/query the record must match (needs an object; its own stored fields only). */
                    filter?: string;
                    /** @description Header fields sent with each delivery: {"Name": "value"} or ["Name: value"]. */
                    headers?: unknown;
                    /** @description POST (default), PUT or PATCH. */
                    method?: string;
                    /** @description An object's system name or number; absent, null or '*': every object. */
                    object?: unknown;
                    /** @description An absolute http(s) URL; its host must be a public address (unless WEBHOOK_ALLOW_PRIVATE=true). */
                    url: string;
                };
            };
        };
        responses: {
            /** @description Made: the webhook with its secret; Location names it. */
            201: {
                headers: {
                    /** @description The new webhook's API URL: {BASE_URL}/api/webhooks/{id}. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            disabledAt: string | null;
                            /** @enum {string} */
                            event: "created" | "updated" | "deleted";
                            /** Format: date-time */
                            failingSince: string | null;
                            /** @description Failed attempts in a row since the last success. */
                            failures: number;
                            /** @description The filter the record must match (filter language of /api/query); null: every record. */
                            filter: string | null;
                            /** @description Header fields sent with each delivery, their values masked: ****, followed by the last four characters of a value of 16 or more (deliveries send them whole). */
                            headers: {
                                [key: string]: string;
                            };
                            /** @description The webhook's id, a UUID. */
                            id: string;
                            /** @enum {string} */
                            method: "POST" | "PUT" | "PATCH";
                            /** @description The object's system name; null: every object. */
                            object: string | null;
                            objectType: number | null;
                            /**
                             * Format: date-time
                             * @description Until when the secret the last rotation replaced signs each delivery beside the current one; null when none does.
                             */
                            previousSecretExpiresAt: string | null;
                            /** @description The signing secret (Standard Webhooks, `whsec_…`): shown only in this reply. */
                            secret: string;
                            /**
                             * @description disabled: it failed for too long (docs/webhooks.md); POST …/enable makes it active again.
                             * @enum {string}
                             */
                            status: "active" | "disabled";
                            url: string;
                        };
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user is not admin: only the admin role manages webhooks. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization has no webhook with that id (or, on create, the object is unknown). */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description The webhook's id.
                 * @example 0f8fad5b-d9cb-469f-a165-70867728950e
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: the envelope {success, data, message}. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            disabledAt: string | null;
                            /** @enum {string} */
                            event: "created" | "updated" | "deleted";
                            /** Format: date-time */
                            failingSince: string | null;
                            /** @description Failed attempts in a row since the last success. */
                            failures: number;
                            /** @description The filter the record must match (filter language of /api/query); null: every record. */
                            filter: string | null;
                            /** @description Header fields sent with each delivery, their values masked: ****, followed by the last four characters of a value of 16 or more (deliveries send them whole). */
                            headers: {
                                [key: string]: string;
                            };
                            /** @description The webhook's id, a UUID. */
                            id: string;
                            /** @enum {string} */
                            method: "POST" | "PUT" | "PATCH";
                            /** @description The object's system name; null: every object. */
                            object: string | null;
                            objectType: number | null;
                            /**
                             * Format: date-time
                             * @description Until when the secret the last rotation replaced signs each delivery beside the current one; null when none does.
                             */
                            previousSecretExpiresAt: string | null;
                            /**
                             * @description disabled: it failed for too long (docs/webhooks.md); POST …/enable makes it active again.
                             * @enum {string}
                             */
                            status: "active" | "disabled";
                            url: string;
                        };
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user is not admin: only the admin role manages webhooks. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization has no webhook with that id (or, on create, the object is unknown). */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description The webhook's id.
                 * @example 0f8fad5b-d9cb-469f-a165-70867728950e
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: the envelope {success, data, message}. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {object|null} */
                        data: never | null;
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user is not admin: only the admin role manages webhooks. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization has no webhook with that id (or, on create, the object is unknown). */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description The page, from 1 (default 1). */
                pagenumber?: number;
                /** @description Deliveries per page (default 50; larger than 500 is served as 500). */
                pagesize?: number;
                /** @description Only the deliveries in this state (default: all); pages count those only. */
                state?: "pending" | "delivered" | "failed";
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description The webhook's id.
                 * @example 0f8fad5b-d9cb-469f-a165-70867728950e
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: the envelope {success, data, message}. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            deliveries: {
                                attempts: number;
                                /**
                                 * Format: date-time
                                 * @description When the write was made.
                                 */
                                createdAt: string;
                                /** @description How long the last attempt took. */
                                durationMs: number | null;
                                /**
                                 * @description The record's event; test: a test event (POST /api/webhooks/{id}/test), of no record.
                                 * @enum {string}
                                 */
                                event: "created" | "updated" | "deleted" | "test";
                                /** @description The delivery's id: the webhook-id header of each of its attempts. */
                                id: string;
                                /** Format: date-time */
                                lastAttemptAt: string | null;
                                lastError: string | null;
                                /** @description The HTTP status of the last attempt; null when it got no reply. */
                                lastStatus: number | null;
                                /** Format: date-time */
                                nextAttemptAt: string | null;
                                /** @description The record's object; null for a test event. */
                                objectType: number | null;
                                /** @description The record's id; null for a test event. */
                                recordId: string | null;
                                /** @description The start of the last reply's body (1,000 characters at most). */
                                response: string | null;
                                /** @description The change log's number of the write (data.sequence of the body); null for a test event. */
                                sequence: number | null;
                                /**
                                 * @description pending: waiting for its first attempt or a retry; failed: given up.
                                 * @enum {string}
                                 */
                                state: "pending" | "delivered" | "failed";
                                webhookId: string;
                            }[];
                            isLastPage: boolean;
                            pageNumber: number;
                            pageSize: number;
                        };
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user is not admin: only the admin role manages webhooks. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization has no webhook with that id (or, on create, the object is unknown). */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    retryWebhookDelivery: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description The delivery's id (its webhook-id header).
                 * @example 0f8fad5b-d9cb-469f-a165-70867728950e
                 */
                deliveryId: string;
                /**
                 * @description The webhook's id.
                 * @example 0f8fad5b-d9cb-469f-a165-70867728950e
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: the envelope {success, data, message}. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            attempts: number;
                            /**
                             * Format: date-time
                             * @description When the write was made.
                             */
                            createdAt: string;
                            /** @description How long the last attempt took. */
                            durationMs: number | null;
                            /**
                             * @description The record's event; test: a test event (POST /api/webhooks/{id}/test), of no record.
                             * @enum {string}
                             */
                            event: "created" | "updated" | "deleted" | "test";
                            /** @description The delivery's id: the webhook-id header of each of its attempts. */
                            id: string;
                            /** Format: date-time */
                            lastAttemptAt: string | null;
                            lastError: string | null;
                            /** @description The HTTP status of the last attempt; null when it got no reply. */
                            lastStatus: number | null;
                            /** Format: date-time */
                            nextAttemptAt: string | null;
                            /** @description The record's object; null for a test event. */
                            objectType: number | null;
                            /** @description The record's id; null for a test event. */
                            recordId: string | null;
                            /** @description The start of the last reply's body (1,000 characters at most). */
                            response: string | null;
                            /** @description The change log's number of the write (data.sequence of the body); null for a test event. */
                            sequence: number | null;
                            /**
                             * @description pending: waiting for its first attempt or a retry; failed: given up.
                             * @enum {string}
                             */
                            state: "pending" | "delivered" | "failed";
                            webhookId: string;
                        };
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user is not admin: only the admin role manages webhooks. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization has no webhook with that id (or, on create, the object is unknown). */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The delivery has not failed (DELIVERY_NOT_FAILED): it is pending, and will be attempted, or delivered. */
            409: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    enableWebhook: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description The webhook's id.
                 * @example 0f8fad5b-d9cb-469f-a165-70867728950e
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: the envelope {success, data, message}. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            disabledAt: string | null;
                            /** @enum {string} */
                            event: "created" | "updated" | "deleted";
                            /** Format: date-time */
                            failingSince: string | null;
                            /** @description Failed attempts in a row since the last success. */
                            failures: number;
                            /** @description The filter the record must match (filter language of /api/query); null: every record. */
                            filter: string | null;
                            /** @description Header fields sent with each delivery, their values masked: ****, followed by the last four characters of a value of 16 or more (deliveries send them whole). */
                            headers: {
                                [key: string]: string;
                            };
                            /** @description The webhook's id, a UUID. */
                            id: string;
                            /** @enum {string} */
                            method: "POST" | "PUT" | "PATCH";
                            /** @description The object's system name; null: every object. */
                            object: string | null;
                            objectType: number | null;
                            /**
                             * Format: date-time
                             * @description Until when the secret the last rotation replaced signs each delivery beside the current one; null when none does.
                             */
                            previousSecretExpiresAt: string | null;
                            /**
                             * @description disabled: it failed for too long (docs/webhooks.md); POST …/enable makes it active again.
                             * @enum {string}
                             */
                            status: "active" | "disabled";
                            url: string;
                        };
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user is not admin: only the admin role manages webhooks. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization has no webhook with that id (or, on create, the object is unknown). */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description The webhook's id.
                 * @example 0f8fad5b-d9cb-469f-a165-70867728950e
                 */
                id: string;
            };
            cookie?: never;
        };
        /** @description How long the secret replaced keeps signing beside the new one; optional (no body: the defaults). */
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Hours the secret replaced signs each delivery beside the new one (default 24); 0: only the new one, from now on. */
                    expiresInHours?: number;
                } | null;
            };
        };
        responses: {
            /** @description The webhook with its new secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            disabledAt: string | null;
                            /** @enum {string} */
                            event: "created" | "updated" | "deleted";
                            /** Format: date-time */
                            failingSince: string | null;
                            /** @description Failed attempts in a row since the last success. */
                            failures: number;
                            /** @description The filter the record must match (filter language of /api/query); null: every record. */
                            filter: string | null;
                            /** @description Header fields sent with each delivery, their values masked: ****, followed by the last four characters of a value of 16 or more (deliveries send them whole). */
                            headers: {
                                [key: string]: string;
                            };
                            /** @description The webhook's id, a UUID. */
                            id: string;
                            /** @enum {string} */
                            method: "POST" | "PUT" | "PATCH";
                            /** @description The object's system name; null: every object. */
                            object: string | null;
                            objectType: number | null;
                            /**
                             * Format: date-time
                             * @description Until when the secret the last rotation replaced signs each delivery beside the current one; null when none does.
                             */
                            previousSecretExpiresAt: string | null;
                            /** @description The signing secret (Standard Webhooks, `whsec_…`): shown only in this reply. */
                            secret: string;
                            /**
                             * @description disabled: it failed for too long (docs/webhooks.md); POST …/enable makes it active again.
                             * @enum {string}
                             */
                            status: "active" | "disabled";
                            url: string;
                        };
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user is not admin: only the admin role manages webhooks. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization has no webhook with that id (or, on create, the object is unknown). */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    testWebhook: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description The webhook's id.
                 * @example 0f8fad5b-d9cb-469f-a165-70867728950e
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Made: the test event's delivery, pending. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            attempts: number;
                            /**
                             * Format: date-time
                             * @description When the write was made.
                             */
                            createdAt: string;
                            /** @description How long the last attempt took. */
                            durationMs: number | null;
                            /**
                             * @description The record's event; test: a test event (POST /api/webhooks/{id}/test), of no record.
                             * @enum {string}
                             */
                            event: "created" | "updated" | "deleted" | "test";
                            /** @description The delivery's id: the webhook-id header of each of its attempts. */
                            id: string;
                            /** Format: date-time */
                            lastAttemptAt: string | null;
                            lastError: string | null;
                            /** @description The HTTP status of the last attempt; null when it got no reply. */
                            lastStatus: number | null;
                            /** Format: date-time */
                            nextAttemptAt: string | null;
                            /** @description The record's object; null for a test event. */
                            objectType: number | null;
                            /** @description The record's id; null for a test event. */
                            recordId: string | null;
                            /** @description The start of the last reply's body (1,000 characters at most). */
                            response: string | null;
                            /** @description The change log's number of the write (data.sequence of the body); null for a test event. */
                            sequence: number | null;
                            /**
                             * @description pending: waiting for its first attempt or a retry; failed: given up.
                             * @enum {string}
                             */
                            state: "pending" | "delivered" | "failed";
                            webhookId: string;
                        };
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user is not admin: only the admin role manages webhooks. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization has no webhook with that id (or, on create, the object is unknown). */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The webhook is disabled for failing (WEBHOOK_DISABLED): enable it first. */
            409: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    listObjects: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: the envelope {success, data, message}. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            name: string;
                            /** @description The object number as a digit string. */
                            objectType: string;
                            systemName: string;
                        }[];
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user lacks the permission on this object, or a field asked for is hidden from it; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    getObject: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Object number (1) or system name (account).
                 * @example 1
                 */
                ot: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: the envelope {success, data, message}. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            name: string;
                            /** @description The object number as a digit string. */
                            objectType: string;
                            /** @description The display-name field's name (accountname). */
                            PrimaryField: string;
                            /** @description The key field's name (accountid). */
                            PrimaryKey: string;
                            systemName: string;
                        };
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user lacks the permission on this object, or a field asked for is hidden from it; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    listFields: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /**
                 * @description Object number (1) or system name (account).
                 * @example 1
                 */
                ot: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: the envelope {success, data, message}. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            fieldName: string;
                            label: string;
                            systemFieldTypeId: string;
                            systemName: string;
                        }[];
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user lacks the permission on this object, or a field asked for is hidden from it; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    getField: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /** @description Field system name. */
                field: string;
                /**
                 * @description Object number (1) or system name (account).
                 * @example 1
                 */
                ot: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: the envelope {success, data, message}. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            fieldName: string;
                            /** @description A lookup's target object number; for other fields the field's own object. */
                            fieldObjectType: string;
                            label: string;
                            systemFieldTypeId: string;
                            systemName: string;
                        };
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user lacks the permission on this object, or a field asked for is hidden from it; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
    getFieldValues: {
        parameters: {
            query?: {
                /** @description The API token, for clients that cannot send the tokenid header. */
                tokenid?: string;
            };
            header?: never;
            path: {
                /** @description Field system name. */
                field: string;
                /**
                 * @description Object number (1) or system name (account).
                 * @example 1
                 */
                ot: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: the envelope {success, data, message}. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            fieldName: string;
                            /** @description A lookup's target object number; for other fields the field's own object. */
                            fieldObjectType: string;
                            label: string;
                            systemFieldTypeId: string;
                            systemName: string;
                            values: {
                                name: string;
                                /** @description The picklist code as a digit string. */
                                value: string;
                            }[];
                        };
                        message: string;
                        success: boolean;
                    };
                };
            };
            /** @description Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type. */
            400: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description No API token, or the token is unknown or revoked. */
            401: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The organization's plan does not include this object or action; the Message names the plan to upgrade to. */
            402: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The role of the token's user lacks the permission on this object, or a field asked for is hidden from it; the Message names what to grant. */
            403: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Unknown object, or no record has that id. */
            404: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT). */
            408: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The request body is over 20 MB. */
            413: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description Over the organization's minute limit or daily cap (without a valid token: the client address's minute limit); Retry-After says when to retry. */
            429: {
                headers: {
                    /** @description Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap. */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The server failed; the Message names the request id to report. */
            500: {
                headers: {
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
            /** @description The database cannot be reached (PostgreSQL), or another process held the organization's records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying: 5 when the database cannot be reached (STORE_UNAVAILABLE), 1 when another process held the records for writing (STORE_BUSY). */
                    "Retry-After"?: number;
                    /** @description The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message. */
                    "X-Error-Code"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Message: string;
                    };
                };
            };
        };
    };
}
