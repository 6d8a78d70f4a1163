//! Whole games of each real ruleset by mail, through the Maildir pipeline:
//! every mail and record copy checked for what its side may not see.

mod ac_mail;
mod adp_mail;
mod explain_mail;
mod ldf_mail;
mod orders_mail;
mod play_mail;
mod press_mail;
mod sarhu_mail;
mod stops_mail;
