/**
 * Test corpus for the PII scrubber (a test helper, imported by unit and end-to-end tests, never by the engine).
 *
 * `PII_CORPUS`: realistic sentences that each hold exactly one piece of PII; `secret` is that raw substring, which
 * must not survive scrubbing (an end-to-end test writes these texts through the engine and greps the database
 * file for every `secret`). All values are published test numbers, documentation examples or made up, but each is
 * valid by the rules the detectors check (Luhn, mod-97, check letters, numbering plans).
 *
 * `PII_LOOKALIKES`: sentences with nothing personal in them that share a shape with PII (failed checksums, dates,
 * versions, hashes, ids, ordinary prose about passwords and tokens). None may be altered.
 */
import type { PiiKind } from '../../core/types.js';

export interface PiiSample {
  kind: PiiKind;
  text: string;
  /** The raw PII inside `text`. */
  secret: string;
}

const sample = (kind: PiiKind, secret: string, template: string): PiiSample => ({
  kind,
  secret,
  text: template.replace('%', secret),
});

const PEM_KEY = [
  '-----BEGIN RSA PRIVATE KEY-----',
  'MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi7Z8Gg1mFQ0wXgYV6qB7JkNcHd',
  'q4Xv2k9LmTzR8yP1sW3nB6cE0dF5gH7jK2lM4nP6qR8sT0uV2wX4yZ6aB8cD0eF1',
  '-----END RSA PRIVATE KEY-----',
].join('\n');

const OPENSSH_KEY = [
  '-----BEGIN OPENSSH PRIVATE KEY-----',
  'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
  'QyNTUxOQAAACDx3fBvW9q2LmT8yR4kP1sN6cE0dF5gH7jK2lM4nP6qRwAAAJgAAAAA',
  '-----END OPENSSH PRIVATE KEY-----',
].join('\n');

const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

export const PII_CORPUS: readonly PiiSample[] = [
  // --- email -------------------------------------------------------------------------------------------------
  sample('email', 'john.doe@example.com', 'Please send the invoice to % before Friday.'),
  sample('email', 'Jane.Smith+billing@corp.example.co.uk', 'From: Jane Smith <%>'),
  sample('email', 'ops_team-7@mail.internal-example.org', 'Escalations go to %, they answer within an hour.'),
  sample('email', 'a.b.c@sub.domain.example.io', 'mailto:% was in the footer of the page'),
  sample('email', 'MARIA.GARCIA@EXAMPLE.ES', 'El cliente escribió desde % ayer.'),
  sample('email', 'user42@example.net', '{"reply_to": "%"}'),

  // --- phone ------------------------------------------------------------------------------------------------
  sample('phone', '(415) 555-2671', 'Call me back at % after 5pm.'),
  sample('phone', '415-555-2671', 'My cell is % if the meeting moves.'),
  sample('phone', '202.456.1111', 'The front desk number is %.'),
  sample('phone', '+1 650 253 0000', 'Support line: % (weekdays).'),
  sample('phone', '+44 20 7946 0958', 'Our London office can be reached on %.'),
  sample('phone', '+49 30 901820', 'Ruf mich unter % an.'),
  sample('phone', '+33 1 42 68 53 00', 'Le numéro du bureau est le %.'),
  sample('phone', '+91 98765 43210', 'WhatsApp me on % for the delivery.'),
  sample('phone', '+61 2 9374 4000', 'The Sydney team picks up at %.'),
  sample('phone', '0044 20 7946 0958', 'From abroad dial % instead.'),
  sample('phone', '+14155552671', 'tel:% was stored in the CRM'),

  // --- card -------------------------------------------------------------------------------------------------
  sample('card', '4111 1111 1111 1111', 'Charge it to my Visa % please.'),
  sample('card', '5555-5555-5555-4444', 'Mastercard number % exp 09/27.'),
  sample('card', '378282246310005', 'Amex card: %, CVV on the back.'),
  sample('card', '6011 1111 1111 1117', 'Discover % was declined yesterday.'),
  sample('card', '3530111333300000', 'The JCB card % belongs to the hotel booking.'),
  sample('card', '3056 930902 5904', 'Diners Club % is on file.'),
  sample('card', '2223003122003222', 'New Mastercard range: % works now.'),
  sample('card', '4222222222222', 'Old 13-digit Visa % still in the table.'),

  // --- iban -------------------------------------------------------------------------------------------------
  sample('iban', 'DE89 3704 0044 0532 0130 00', 'Bitte überweisen Sie den Betrag auf %.'),
  sample('iban', 'GB82WEST12345698765432', 'Refund to IBAN % once approved.'),
  sample('iban', 'FR14 2004 1010 0505 0001 3M02 606', 'Virement vers % effectué.'),
  sample('iban', 'NL91ABNA0417164300', 'Rekeningnummer: %'),
  sample('iban', 'ES91 2100 0418 4502 0005 1332', 'Domiciliación en la cuenta %.'),
  sample('iban', 'CH9300762011623852957', 'Payment details: % (UBS).'),

  // --- gov_id -----------------------------------------------------------------------------------------------
  sample('gov_id', '536-90-4399', 'My social is % if you need it for the form.'),
  sample('gov_id', '078-05-1120', 'The applicant listed % on the W-2.'),
  sample('gov_id', '536904399', 'SSN: % (from the intake call)'),
  sample('gov_id', '219 09 9999', 'social security number % was read out loud'),
  sample('gov_id', 'AB 12 34 56 C', 'National Insurance number % for payroll.'),
  sample('gov_id', 'JG103759A', 'NINO % confirmed by HMRC.'),
  sample('gov_id', '12345678Z', 'Mi DNI es % y vivo en Madrid.'),
  sample('gov_id', '87.654.321-X', 'DNI del titular: %.'),
  sample('gov_id', 'X1234567L', 'El NIE del trabajador es %.'),
  sample('gov_id', 'Y-7654321-G', 'Nuevo NIE %, pendiente de validar.'),
  sample('gov_id', '2345 6789 0124', 'Aadhaar % linked to the account.'),
  sample('gov_id', '4987-6543-2102', 'KYC doc: % (masked copy requested).'),
  sample('gov_id', '599951234562', 'Aadhaar number: %'),
  sample('gov_id', '529.982.247-25', 'CPF do cliente: %.'),
  sample('gov_id', 'RSSMRA85T10A562S', 'Codice fiscale % per la fattura.'),
  sample('gov_id', '130 692 544', 'SIN: % (Canada payroll)'),
  sample('gov_id', '111222333', 'BSN % staat op het formulier.'),

  // --- ip ---------------------------------------------------------------------------------------------------
  sample('ip', '203.0.113.45', 'Login from % at 09:14 was blocked.'),
  sample('ip', '192.168.0.12', 'SSH into % port 22 worked.'),
  sample('ip', '10.20.30.40', 'curl http://%:8080/health returned 200'),
  sample('ip', '2001:db8:85a3::8a2e:370:7334', 'Client address % hit the rate limit.'),
  sample('ip', 'fe80::1ff:fe23:4567:890a', 'Link-local % appeared in the logs.'),
  sample('ip', '2001:0db8:0000:0000:0000:ff00:0042:8329', 'Full form % is the same host.'),
  sample('ip', '::ffff:198.51.100.7', 'Mapped address % came through the proxy.'),
  sample('ip', '2001:db8::42', 'Connect to [%]:443 over TLS.'),

  // --- secret -----------------------------------------------------------------------------------------------
  sample('secret', 'sk-proj-Xk4mP9qR2sT7vW1yZ3bC5dF8gH0jK6nL', 'Use the OpenAI key % for the batch job.'),
  sample('secret', 'sk-ant-api03-q8Zr4Lm2Kx9Vb7Nc3Wd5Yf1Gh6Jk0Pq-Rs8Tu2Vw4XyAA', 'Anthropic key: %'),
  sample('secret', 'sk-3fJk29dLq8WmZxP0rT5yUvB7nC1eH4gA6sKd', 'old key % still works'),
  sample('secret', 'AKIAIOSFODNN7EXAMPLE', 'The IAM user key id is %.'),
  sample('secret', 'ASIAY34FZKBOKMUTVV7A', 'Temporary credentials % expire in an hour.'),
  sample('secret', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'aws_secret_access_key = %'),
  sample('secret', 'ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8', 'git clone https://%@github.com/acme/app.git'),
  sample('secret', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGH', 'Set GH token to % in CI.'),
  sample('secret', 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx', 'The Slack bot uses %.'),
  sample('secret', 'AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY', 'Maps key % is restricted to our domain.'),
  sample('secret', 'sk_live_51H8xYzAbCdEfGhIjKlMnOpQr', 'Stripe live key % rotated today.'),
  sample('secret', 'rk_live_51H8xYzRestrictedKey0001', 'Restricted key % for the reporting job.'),
  sample('secret', JWT, 'The session token was % and it expired.'),
  sample('secret', PEM_KEY, 'Deploy key below:\n%\nDo not share.'),
  sample('secret', OPENSSH_KEY, '%'),
  sample('secret', 'abcDEF123ghiJKL456mnoPQR', 'curl -H "Authorization: Bearer %" https://api.example.com'),
  sample('secret', 'hunter2', 'login with password=% then reset it'),
  sample('secret', 'Tr0ub4dor&3', 'DB_PASSWORD=% in the old .env file'),
  sample('secret', '9f8e7d6c5b4a39281706', 'api_key: % (staging)'),
  sample('secret', 'correct horse battery staple', '{"password": "%", "user": "admin"}'),
  sample('secret', 'S3cr3tPa55', 'postgres://app:%@db.internal:5432/app'),
  sample('secret', 'p4ss-w0rd!', 'Run it as tool --password % --verbose'),
  sample('secret', 'q1w2e3r4t5', 'client_secret=% was committed by mistake'),
];

export const PII_LOOKALIKES: readonly string[] = [
  // Cards and IBANs that fail their checksums.
  'Test card 4111 1111 1111 1112 fails Luhn on purpose.',
  'Order #4111111111111113 was shipped on Monday.',
  'Use IBAN DE89 3704 0044 0532 0130 01 in the negative test.',
  'GB00WEST12345698765432 is a malformed account.',
  'Tracking number 1Z999AA10123456784 is with UPS.',
  // Dates, times and timestamps.
  'The release went out on 2024-03-15 and was rolled back on 15/03/2024.',
  'Meeting moved to March 15, 2024 at 12:30:45.',
  'Event time 2024-03-15T12:30:45.123Z from the audit log.',
  'Unix timestamps 1700000000000 and 1699999999 are both in the file.',
  'The fiscal year 2023-2024 closed at 23:59.',
  // Versions and numbers.
  'Upgrade from 1.2.3 to v2.10.0-beta.1 before the freeze.',
  'Running node 20.11.1 with npm 10.2.4 on version 1.2.3.4 of the agent.',
  'Ubuntu 22.04.3 LTS ships Python 3.10.12.',
  'Pi is 3.14159 and the temperature was 36.6 degrees.',
  'Revenue was $1,234,567.89 in Q3, up 12.5% on 1,234 orders.',
  'Route 66, room 101, and 3 x 4 = 12.',
  'ISBN 978-3-16-148410-0 is the second edition.',
  'CVE-2024-12345 affects versions below 4.17.21.',
  // Ids, hashes and codes.
  'Order 1234567890 is waiting for pickup.',
  'Invoice INV-2024-00042 covers order id 98765432.',
  'Commit a1b2c3d4e5f60718293a4b5c6d7e8f9012345678 fixed the flaky test.',
  'Short hash 9fceb02 is on main.',
  'Request id 550e8400-e29b-41d4-a716-446655440000 timed out.',
  'sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  'ZIP 94105-1234 is in San Francisco.',
  'Part number ABC-12-3456 is out of stock.',
  // Government-id shapes that break the issuing rules.
  'SSN 000-12-3456 and 666-12-3456 are never issued.',
  'Placeholder SSN 900-12-3456 is in the test fixtures.',
  'DNI 12345678A has the wrong control letter.',
  'The NINO QQ 12 34 56 C is the HMRC documentation example.',
  'Aadhaar 2345 6789 0123 fails the Verhoeff check.',
  // Network-looking strings that are not addresses.
  'Bad address 999.1.1.1 and 1.2.3.4.5 were rejected.',
  'The dev server listens on 127.0.0.1:3000 and binds 0.0.0.0.',
  'Netmask 255.255.255.0 on every interface.',
  'MAC 00:1A:2B:3C:4D:5E belongs to the printer.',
  'Use std::vector<int> and Foo::bar() in the C++ port.',
  // Email- and phone-looking strings.
  'Install lodash@4.17.21 and @types/node@20.11.0 first.',
  'Ping @maria on the thread, and push to git@github.com:acme/app.git.',
  'Retina assets logo@2x.png and icon@3x.webp are in public/.',
  'Dial extension 4421 or the short number 555-1234.',
  'Call (123) 456-7890 is the classic fake number.',
  // Prose about credentials, with no credential in it.
  'The password must be at least 12 characters long.',
  'Reset your password: click the link in the email.',
  'Set max_tokens: 4096 and token_count=12 for the run.',
  'The API key is stored in the vault, never in the repo.',
  'A token: the smallest unit of text the model sees.',
  'Publishable keys like pk_test_TYooMQauvdEDq54NiTphI7jx are public.',
  'Use sk-learn for the baseline model.',
  'The password field is empty: password= and token="" were sent.',
  'Authentication failed for user admin after 3 tries.',
];
