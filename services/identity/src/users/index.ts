export { addressForm, sameAddress } from './addresses.js';
export { MAX_PASSWORD_BYTES, type PasswordCheck, Passwords } from './passwords.js';
export { type User, type UserSort, USER_SORTS, UsersRepository } from './users.repository.js';
export { authenticateUser, checkPassword, createUser, deleteUser, resetUserPassword, serviceAccountUser, setUserPassword, updateUser, type UsersDeps } from './users.js';
