/**
 * The configuration files of the test IRC network: InspIRCd 3 with the IRCv3 capabilities a bot
 * relies on (SASL, account-tag, extended-join, account-notify, echo-message, cap-notify), fakelag on,
 * linked to Atheme 7.2 services (NickServ, ChanServ, SaslServ) — the Debian packages `inspircd` and
 * `atheme-services`. The reasons behind each line are in the module list's comments.
 */

/** Where and how the network listens. */
export interface IrcNetworkLayout {
  dir: string;
  /** Plain-text client port. */
  port: number;
  /** TLS client port (certificate `dir/tls/cert.pem`). */
  tlsPort: number;
  /** Server-link port (Atheme's uplink). */
  linkPort: number;
  linkPassword: string;
  operPassword: string;
  /** Fakelag threshold: the burst a client may send before its lines are held to one a second. */
  floodThreshold: number;
}

const MODULES = [
  'cap', // CAP negotiation: nothing IRCv3 works without it
  'ircv3', // account-notify, away-notify, extended-join
  'ircv3_accounttag',
  'ircv3_batch',
  'ircv3_capnotify', // CAP NEW/DEL sasl when services link or split
  'ircv3_chghost',
  'ircv3_ctctags',
  'ircv3_echomessage',
  'ircv3_invitenotify',
  'ircv3_labeledresponse',
  'ircv3_msgid',
  'ircv3_servertime',
  'sasl',
  'services_account',
  'ssl_gnutls', // Debian's build ships only gnutls
  'sslinfo',
  'spanningtree', // server linking, for services
  'namesx',
  'uhnames',
  'monitor',
  'setname',
  'botmode',
  'chghost',
  'cban',
  'svshold',
  // Atheme's own clients are +iodIk: without these InspIRCd drops the link after the burst.
  'servprotect',
  'hidechans',
  'deaf',
  'messageflood',
  'alias',
  'sha256',
];

const ALIASES = [
  ['NICKSERV', 'NickServ'],
  ['NS', 'NickServ'],
  ['CHANSERV', 'ChanServ'],
  ['CS', 'ChanServ'],
];

/** InspIRCd's configuration. */
export function inspircdConf(n: IrcNetworkLayout): string {
  const d = n.dir;
  return `<path configdir="${d}" datadir="${d}/data" logdir="${d}/logs" moduledir="/usr/lib/inspircd/modules" runtimedir="${d}/run">
<pid file="${d}/run/inspircd.pid">
<server name="irc.local" description="Deckhand test network" id="0AA" network="LocalNet">
<admin name="test" nick="test" email="test@irc.local">
<bind address="127.0.0.1" port="${n.port}" type="clients">
<bind address="127.0.0.1" port="${n.tlsPort}" type="clients" sslprofile="Clients">
<bind address="127.0.0.1" port="${n.linkPort}" type="servers">
<connect name="main" allow="*" timeout="20" pingfreq="120" hardsendq="1M" softsendq="10K" recvq="8K"
         threshold="${n.floodThreshold}" commandrate="1000" fakelag="yes"
         localmax="1000" globalmax="1000" limit="5000" maxchans="50" useident="no" resolvehostnames="no">
<class name="Everything" commands="*" privs="*" usermodes="*" chanmodes="*" snomasks="*">
<type name="NetAdmin" classes="Everything" host="netadmin.irc.local">
<oper name="admin" password="${n.operPassword}" host="*@*" type="NetAdmin">
<log method="file" type="* -USERINPUT -USEROUTPUT" level="default" target="${d}/logs/inspircd.log">
<options defaultmodes="not">
${MODULES.map((m) => `<module name="${m}">`).join('\n')}
<ircv3 accountnotify="yes" awaynotify="yes" extendedjoin="yes">
<sasl target="services.localhost" requiressl="no">
<sslprofile name="Clients" provider="gnutls" certfile="${d}/tls/cert.pem" keyfile="${d}/tls/key.pem" hash="sha256" requestclientcert="yes">
<link name="services.localhost" ipaddr="127.0.0.1" port="${n.linkPort}" allowmask="127.0.0.0/8"
      sendpass="${n.linkPassword}" recvpass="${n.linkPassword}" timeout="60" hidden="no">
<uline server="services.localhost" silent="yes">
${ALIASES.map(([text, nick]) => `<alias text="${text}" replace="PRIVMSG ${nick} :$2-" requires="${nick}" uline="yes">`).join('\n')}
`;
}

const ATHEME_MODULES = [
  'protocol/inspircd',
  'backend/opensex',
  'crypto/pbkdf2v2',
  'nickserv/main',
  'nickserv/register',
  'nickserv/identify',
  'nickserv/logout',
  'nickserv/info',
  'nickserv/ghost',
  'nickserv/drop',
  'nickserv/group',
  'nickserv/help',
  'nickserv/set_core',
  'nickserv/set_password',
  'nickserv/status',
  'chanserv/main',
  'chanserv/register',
  'chanserv/flags',
  'chanserv/op',
  'chanserv/kick',
  'chanserv/info',
  'saslserv/main',
  'saslserv/plain',
  'saslserv/external',
  'operserv/main',
];

/** Atheme's configuration (no `general::raw`: it taints Atheme, which then exits). */
export function athemeConf(n: IrcNetworkLayout): string {
  return `${ATHEME_MODULES.map((m) => `loadmodule "modules/${m}";`).join('\n')}
serverinfo {
  name = "services.localhost"; desc = "Test services"; numeric = "00A"; recontime = 1;
  netname = "LocalNet"; hidehostsuffix = "users.localnet"; adminname = "test";
  adminemail = "admin@example.org"; registeremail = "noreply@example.org";
  loglevel = { error; info; admin; network; };
  maxlogins = 50; maxusers = 50; mdlimit = 30; emaillimit = 10; emailtime = 300;
  auth = none; casemapping = rfc1459;
};
uplink "irc.local" { host = "127.0.0.1"; port = ${n.linkPort}; send_password = "${n.linkPassword}"; receive_password = "${n.linkPassword}"; };
general {
  helpchan = "#help"; helpurl = "http://example.org"; join_chans; leave_chans;
  uflags = { hidemail; }; cflags = { guard; verbose; };
  flood_msgs = 0; flood_time = 10; ratelimit_uses = 1000; ratelimit_period = 60;
  kline_time = 7; commit_interval = 1; default_clone_allowed = 1000; default_clone_warn = 1000;
  uplink_sendq_limit = 1048576; language = "en"; immune_level = immune; show_entity_id;
  load_database_mdeps;
};
nickserv { nick = "NickServ"; user = "NickServ"; host = "services.localhost"; real = "Nickname Services"; maxnicks = 5; expire = 30; enforce_expire = 14; enforce_delay = 30; enforce_prefix = "Guest"; };
chanserv { nick = "ChanServ"; user = "ChanServ"; host = "services.localhost"; real = "Channel Services"; maxchanacs = 0; maxfounders = 4; fantasy; changets; trigger = "!"; expire = 30; };
saslserv { nick = "SaslServ"; user = "SaslServ"; host = "services.localhost"; real = "SASL Authentication Agent"; };
operserv { nick = "OperServ"; user = "OperServ"; host = "services.localhost"; real = "Operator Services"; };
logfile "${n.dir}/logs/atheme-full.log" { all; };
`;
}
