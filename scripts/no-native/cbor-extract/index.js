// cbor-x wraps its require('cbor-extract') in try/catch and decodes in JavaScript without it.
throw new Error('cbor-extract (native) is not installed: cbor-x uses its JavaScript decoder');
