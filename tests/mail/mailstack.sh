#!/usr/bin/env bash
# A throwaway mail stack on 127.0.0.1 for umpire's transport tests:
# Dovecot (IMAP, LMTP, SASL) + Postfix (SMTP -> Dovecot LMTP). No systemd.
#
# Usage: mailstack.sh VERB DIR
#   start DIR          install (apt) if missing, write configs, start both, wait for ports
#   stop DIR           stop both (by PID file / postfix -c, never by process name)
#   restart-imap DIR   stop and start Dovecot (drops every IMAP session)
#   stop-smtp DIR      stop Postfix only (connections to SMTP ports are refused)
#   start-smtp DIR     start Postfix again
#   status DIR         exit 0 if every port answers
#   install            only install the Debian packages (apt) if missing; no DIR
#
# Everything (configs, mail, queue, logs, TLS CA) lives under DIR. DIR/stack.env
# tells clients where things are (ports, domain, users, CA file).
# Ports are MAILSTACK_PORT_BASE (default 10000) plus:
#   143 IMAP (plain + STARTTLS)   993 IMAPS (implicit TLS)
#    25 SMTP, no auth, loopback   587 submission STARTTLS+AUTH   465 SMTPS TLS+AUTH
#    24 LMTP (internal)            12 SASL (Dovecot auth for Postfix, internal)
#    80 OAuth2 token introspection: not served by the stack; the test that
#       needs it listens there (http://127.0.0.1:PORT/introspect, POST token=...)
# Users (password = NAME-secret): gm alice bob carol dave, addresses NAME@club.test.
# OAuth2: IMAP and SMTP submission also take XOAUTH2 and OAUTHBEARER (RFC 7628);
# Dovecot's oauth2 passdb asks the introspection endpoint above whether a
# token is active and whose it is ({"active": true, "username": "gm"}).
# RCPT TO tempfail@club.test gets 451, permfail@club.test gets 550.
# Mail to NAME+TAG@club.test lands in NAME's folder TAG (created on delivery), so
# every test can use a folder of its own.
# TLS: DIR/tls/ca.pem signed the server certificate (localhost, 127.0.0.1);
# DIR/tls/other-ca.pem is an unrelated CA, for "unknown CA" tests.
set -euo pipefail
cmd=${1:?usage: mailstack.sh start|stop|restart-imap|stop-smtp|start-smtp|status DIR | install}

install_packages() {
  if ! command -v dovecot >/dev/null || ! command -v postfix >/dev/null || ! command -v openssl >/dev/null \
     || [ ! -e /usr/lib/dovecot/lmtp ] || [ ! -e /usr/lib/dovecot/imap ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        dovecot-imapd dovecot-lmtpd postfix openssl >/dev/null
  fi
}
if [ "$cmd" = install ]; then install_packages; exit 0; fi
D=$(realpath -m "${2:?usage: mailstack.sh $cmd DIR}")
DOMAIN=club.test

# Ports: taken from an existing stack.env so every verb acts on the same stack.
if [ -f "$D/stack.env" ]; then
  # shellcheck disable=SC1091
  . "$D/stack.env"
  BASE=$MAILSTACK_PORT_BASE
else
  BASE=${MAILSTACK_PORT_BASE:-10000}
fi
P_IMAP=$((BASE + 143)) P_IMAPS=$((BASE + 993)) P_SMTP=$((BASE + 25))
P_SUB=$((BASE + 587)) P_SMTPS=$((BASE + 465)) P_LMTP=$((BASE + 24)) P_SASL=$((BASE + 12))
P_OAUTH=$((BASE + 80))

wait_ports() { # wait_ports up|down PORT...
  local want=$1; shift
  for port in "$@"; do
    local ok=
    for _ in $(seq 100); do
      if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
        [ "$want" = up ] && { ok=1; break; }
      else
        [ "$want" = down ] && { ok=1; break; }
      fi
      sleep 0.1
    done
    [ -n "$ok" ] || { echo "mailstack: port $port did not come $want" >&2; return 1; }
  done
}

start_dovecot() {
  if [ -f "$D/run/master.pid" ] && kill -0 "$(cat "$D/run/master.pid")" 2>/dev/null; then return 0; fi
  # Dovecot daemonizes but the child keeps the caller's stdout/stderr: a caller
  # reading our output through a pipe would then never see EOF.
  dovecot -c "$D/dovecot.conf" </dev/null >/dev/null 2>&1 || { tail -n 20 "$D/dovecot.log" >&2; return 1; }
  wait_ports up "$P_IMAP" "$P_IMAPS" "$P_LMTP" "$P_SASL"
}

stop_dovecot() {
  [ -f "$D/run/master.pid" ] || return 0
  local pid; pid=$(cat "$D/run/master.pid")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  # Logged-in imap processes (and anvil, log, ...) can outlive the master and
  # keep serving their sessions, so a "restart" would not drop any client.
  # They all stay in the master's session (it called setsid): end exactly those.
  local left
  for sig in TERM TERM TERM KILL; do
    left=$(ps -o pid= -s "$pid" 2>/dev/null | tr -d ' ' || true)
    [ -n "$left" ] || break
    # shellcheck disable=SC2086
    kill -s "$sig" $left 2>/dev/null || true
    sleep 0.3
  done
  wait_ports down "$P_IMAP" "$P_IMAPS"
}

start_postfix() {
  if postfix -c "$D/postfix" status </dev/null >/dev/null 2>&1; then return 0; fi
  # postfix -c exits 1 without a word when stderr is not a tty: its errors only
  # go to the maillog, so show that on failure.
  postfix -c "$D/postfix" start </dev/null >/dev/null 2>&1 || {
    tail -n 20 "$D/postfix.log" >&2 2>/dev/null
    script -qec "postfix -c $D/postfix check" /dev/null >&2 || true
    return 1
  }
  wait_ports up "$P_SMTP" "$P_SUB" "$P_SMTPS"
}

stop_postfix() {
  postfix -c "$D/postfix" stop </dev/null >/dev/null 2>&1 || true
  wait_ports down "$P_SMTP" "$P_SUB" "$P_SMTPS"
}

case "$cmd" in
  stop) [ -d "$D" ] || exit 0; stop_postfix || true; stop_dovecot; exit 0 ;;
  restart-imap) stop_dovecot; start_dovecot; exit 0 ;;
  stop-smtp) stop_postfix; exit 0 ;;
  start-smtp) start_postfix; exit 0 ;;
  status) wait_ports up "$P_IMAP" "$P_IMAPS" "$P_SMTP" "$P_SUB" "$P_SMTPS"; exit 0 ;;
  start) ;;
  *) echo "mailstack: unknown verb $cmd" >&2; exit 2 ;;
esac

# ---------------------------------------------------------------- start
install_packages
id vmail >/dev/null 2>&1 || useradd --system --user-group --no-create-home --shell /usr/sbin/nologin vmail

mkdir -p "$D/run" "$D/state" "$D/mail" "$D/postfix" "$D/tls"
# postfix and vmail must get through DIR (mktemp -d makes it 0700).
chmod 755 "$D"
chown vmail:vmail "$D/mail"
if [ ! -f "$D/users" ]; then
  for u in gm alice bob carol dave; do printf '%s:{PLAIN}%s-secret\n' "$u" "$u"; done > "$D/users"
fi
chmod 644 "$D/users"

# TLS: throwaway CA + leaf. rustls/webpki refuses a CA certificate used as the
# server certificate, hence two. other-ca.pem signs nothing we serve.
if [ ! -f "$D/tls/cert.pem" ]; then
  ( cd "$D/tls"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 30 \
      -subj "/CN=umpire test CA" -keyout ca.key -out ca.pem 2>/dev/null
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 30 \
      -subj "/CN=umpire unrelated CA" -keyout other-ca.key -out other-ca.pem 2>/dev/null
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
      -subj "/CN=localhost" -keyout key.pem -out req.csr 2>/dev/null
    printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' > ext.cnf
    openssl x509 -req -in req.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 30 \
      -extfile ext.cnf -out cert.pem 2>/dev/null
    chmod 644 key.pem ca.pem other-ca.pem cert.pem )
fi

# Dovecot: self-contained config, does not read /etc/dovecot.
cat > "$D/dovecot.conf" <<CONF
base_dir = $D/run
state_dir = $D/state
instance_name = umpire-test-$BASE
log_path = $D/dovecot.log
protocols = imap lmtp
listen = 127.0.0.1
ssl = yes
ssl_cert = <$D/tls/cert.pem
ssl_key = <$D/tls/key.pem
disable_plaintext_auth = no
auth_mechanisms = plain login xoauth2 oauthbearer
mail_location = maildir:$D/mail/%n/Maildir
first_valid_uid = 1
recipient_delimiter = +
lmtp_save_to_detail_mailbox = yes
lda_mailbox_autocreate = yes
lda_mailbox_autosubscribe = yes
# OAuth2 tokens first (only for those mechanisms); the password file serves
# everything else, the user lookups of LMTP among them.
passdb {
  driver = oauth2
  mechanisms = xoauth2 oauthbearer
  args = $D/dovecot-oauth2.conf.ext
}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%n $D/users
}
userdb {
  driver = static
  args = uid=vmail gid=vmail home=$D/mail/%n
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $P_IMAP
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $P_IMAPS
    ssl = yes
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = $P_LMTP
  }
}
service auth {
  inet_listener {
    address = 127.0.0.1
    port = $P_SASL
  }
}
protocol lmtp {
  postmaster_address = postmaster@$DOMAIN
}
CONF

# The oauth2 passdb: every token is checked at the test's endpoint (no cache),
# so a token the endpoint revoked fails at the next login.
cat > "$D/dovecot-oauth2.conf.ext" <<CONF
introspection_mode = post
introspection_url = http://127.0.0.1:$P_OAUTH/introspect
force_introspection = yes
username_attribute = username
username_format = %n
active_attribute = active
active_value = true
timeout_msecs = 5000
CONF

# Postfix: own config dir, queue and log file under DIR.
cp /etc/postfix/master.cf "$D/postfix/master.cf"
cat > "$D/postfix/main.cf" <<CONF
compatibility_level = 3.6
queue_directory = $D/postfix-queue
data_directory = $D/postfix-data
maillog_file = $D/postfix.log
maillog_file_prefixes = $D
myhostname = mail.$DOMAIN
mydestination =
inet_interfaces = loopback-only
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtpd_relay_restrictions = permit_mynetworks, permit_sasl_authenticated, reject_unauth_destination
# Two addresses that always refuse, for error classification tests.
smtpd_recipient_restrictions = check_recipient_access inline:{ {tempfail@$DOMAIN = 451 4.3.0 try again later}, {permfail@$DOMAIN = 550 5.1.1 no such player} }
virtual_mailbox_domains = $DOMAIN
virtual_transport = lmtp:inet:127.0.0.1:$P_LMTP
recipient_delimiter = +
alias_maps =
alias_database =
smtputf8_enable = no
# the size-cap test sends 30 MB
message_size_limit = 67108864
# a test that restarts Dovecot must not leave mail deferred for minutes
minimal_backoff_time = 2s
maximal_backoff_time = 10s
queue_run_delay = 2s
smtpd_tls_cert_file = $D/tls/cert.pem
smtpd_tls_key_file = $D/tls/key.pem
smtpd_tls_security_level = may
smtpd_sasl_type = dovecot
smtpd_sasl_path = inet:127.0.0.1:$P_SASL
CONF
PC="postconf -c $D/postfix"
$PC -MX smtp/inet
$PC -M "$P_SMTP/inet=$P_SMTP inet n - n - - smtpd"
$PC -M "$P_SUB/inet=$P_SUB inet n - n - - smtpd"
$PC -P "$P_SUB/inet/smtpd_tls_security_level=encrypt" "$P_SUB/inet/smtpd_sasl_auth_enable=yes" \
       "$P_SUB/inet/smtpd_relay_restrictions=permit_sasl_authenticated,reject"
$PC -M "$P_SMTPS/inet=$P_SMTPS inet n - n - - smtpd"
$PC -P "$P_SMTPS/inet/smtpd_tls_wrappermode=yes" "$P_SMTPS/inet/smtpd_sasl_auth_enable=yes" \
       "$P_SMTPS/inet/smtpd_relay_restrictions=permit_sasl_authenticated,reject"
mkdir -p "$D/postfix-queue" "$D/postfix-data"
chown postfix "$D/postfix-data"

cat > "$D/stack.env" <<ENV
MAILSTACK_PORT_BASE=$BASE
MAILSTACK_DOMAIN=$DOMAIN
MAILSTACK_USERS="gm alice bob carol dave"
MAILSTACK_IMAP_PORT=$P_IMAP
MAILSTACK_IMAPS_PORT=$P_IMAPS
MAILSTACK_SMTP_PORT=$P_SMTP
MAILSTACK_SUBMISSION_PORT=$P_SUB
MAILSTACK_SMTPS_PORT=$P_SMTPS
MAILSTACK_OAUTH_PORT=$P_OAUTH
MAILSTACK_CA=$D/tls/ca.pem
MAILSTACK_OTHER_CA=$D/tls/other-ca.pem
ENV

start_dovecot
start_postfix
echo "mail stack up in $D (ports $BASE+)"
