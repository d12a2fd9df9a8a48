import { describe, expect, it } from 'vitest';
import { isSecretKeyName, splitWords } from './secret-names.js';

describe('isSecretKeyName', () => {
  it.each([
    'password', 'PASSWORD', 'db_password', 'dbPassword', 'DB_PASSWORD', 'newpassword', 'passwd', 'pwd', 'passphrase',
    'secret', 'client_secret', 'clientSecret', 'token', 'access_token', 'accessToken', 'GITHUB_TOKEN', 'authtoken',
    'api_key', 'apiKey', 'APIKey', 'x-api-key', 'X-Api-Key', 'apikey', 'private_key', 'AWS_SECRET_ACCESS_KEY',
    'aws_access_key_id', 'Authorization', 'auth', 'credentials', 'cookie', 'password_hash', 'spring.datasource.password',
  ])('%s names a credential', (name) => expect(isSecretKeyName(name)).toBe(true));

  it.each([
    'max_tokens', 'maxTokens', 'token_count', 'tokenizer', 'tokens', 'password_policy', 'passwordPolicy',
    'password_reset_required', 'key', 'primary_key', 'public_key', 'keyboard', 'author', 'passenger', 'session_id',
    'secretary', 'monkey', 'user', 'email', '',
  ])('%s does not', (name) => expect(isSecretKeyName(name)).toBe(false));

  it('splits snake, kebab, dotted and camel case', () => {
    expect(splitWords('AWSSecretAccessKey')).toEqual(['aws', 'secret', 'access', 'key']);
    expect(splitWords('x-api.key_ID')).toEqual(['x', 'api', 'key', 'id']);
  });
});
