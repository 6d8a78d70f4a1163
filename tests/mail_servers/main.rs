//! IMAP and SMTP against real servers: the Dovecot + Postfix stack that
//! `scripts/test.sh` starts (`UMPIRE_MAILSTACK`), with faults, and servers
//! that stall on purpose. The tests that need the stack fail without it.

mod mail_deadlines;
mod mail_transport;
mod real_mail;
