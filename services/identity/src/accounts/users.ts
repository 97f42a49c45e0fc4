import { randomToken } from '@hush/common';
import { invalidInput, notFound } from '../errors.js';
import type { OrganizationsRepository } from './organizations.repository.js';
import { MAX_PASSWORD_BYTES, hashPassword, verifyPassword } from './passwords.js';
import type { User, UsersRepository } from './users.repository.js';

const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}$/;

export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly organizations: OrganizationsRepository,
    private readonly passwordCost: number,
  ) {}

  /** A hash of a random password at the configured cost, compared against when the username is unknown, so timing does not reveal which usernames exist. */
  private dummyHash: Promise<string> | undefined;

  /** Creates a user; when no password is given one is generated and returned (shown once). */
  async create(input: {
    username: string;
    password?: string | undefined;
    email?: string | undefined;
    name?: string | undefined;
    organization?: string | undefined;
  }): Promise<{ user: User; generatedPassword: string | undefined }> {
    if (!USERNAME.test(input.username)) throw invalidInput('username must be 1-64 letters, digits or . _ @ + -');
    if (input.email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(input.email)) throw invalidInput('email is not an address');
    const generatedPassword = input.password === undefined ? randomToken(18) : undefined;
    const password = input.password ?? (generatedPassword as string);
    checkPassword(password);
    let organizationId: string | undefined;
    if (input.organization) {
      const org = await this.organizations.find(input.organization);
      if (!org) throw notFound(`organization ${input.organization}`);
      organizationId = org.id;
    }
    const user = await this.users.create({
      username: input.username,
      email: input.email,
      name: input.name,
      organizationId,
      passwordHash: await hashPassword(password, this.passwordCost),
    });
    return { user, generatedPassword };
  }

  async setPassword(username: string, password: string): Promise<void> {
    checkPassword(password);
    const user = await this.users.findByUsername(username);
    if (!user) throw notFound(`user ${username}`);
    await this.users.setPasswordHash(user.id, await hashPassword(password, this.passwordCost));
  }

  /** The user when the password matches; always spends one bcrypt comparison. */
  async authenticate(username: string, password: string): Promise<User | undefined> {
    const user = USERNAME.test(username) ? await this.users.findByUsername(username) : undefined;
    const ok = await verifyPassword(password, user?.passwordHash ?? (await (this.dummyHash ??= hashPassword(randomToken(), this.passwordCost))));
    return ok && user ? user : undefined;
  }
}

function checkPassword(password: string): void {
  if (password.length < 8) throw invalidInput('password must be at least 8 characters');
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) throw invalidInput(`password must be at most ${MAX_PASSWORD_BYTES} bytes`);
}
