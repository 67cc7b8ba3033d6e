//! The `xml` snapshot: the IANA "URN Namespaces" registry XML
//! (`urn-namespaces.xml`), read into the `registry/` data model record by
//! record and written back in IANA's layout. It holds registry facts only:
//! no registration texts, rules or filed versions.

use std::collections::BTreeMap;

use quick_xml::Reader;
use quick_xml::events::Event;

use super::Snapshot;
use super::error::{Result, SnapshotError};
use crate::registry::Kind;
use crate::registry::data::{Person, RecordFile, RegistryFile, SubregistryFile, Xref};
use crate::resolve::{Keyword, QueryRegistry, Scope, Service, SupportedBy};

/// The file of an `xml` snapshot.
pub const XML_FILE: &str = "urn-namespaces.xml";

/// The resolution query parameters' registry beside it (the 2012 URN
/// draft, section 9.2), in the style of IANA's registries: one
/// `<registry>` with the Query Keywords (`-1`) and the Resolution Service
/// Designators (`-2`) as sub-registries.
pub const QUERY_XML_FILE: &str = "urn-resolution-parameters.xml";

const QUERY_ID: &str = "urn-resolution-parameters";

/// `urn-resolution-parameters.xml` for the sub-registries `query`.
///
/// # Errors
///
/// A value XML 1.0 cannot hold.
pub fn render_query(query: &QueryRegistry) -> Result<Vec<u8>> {
    let mut out = String::from("<?xml version='1.0' encoding='UTF-8'?>\n");
    out.push_str(&format!(
        "<registry xmlns=\"http://www.iana.org/assignments\" id=\"{QUERY_ID}\">\n"
    ));
    out.push_str("  <title>URN Resolution Query Parameters</title>\n");
    out.push_str("  <xref type=\"draft\" data=\"draft-ietf-urnbis-rfc2141bis-urn\"/>\n");
    let element = |out: &mut String, indent: &str, name: &str, text: &str| {
        out.push_str(&format!("{indent}<{name}>{}</{name}>\n", xml_escape(text)));
    };
    out.push_str(&format!(
        "  <registry id=\"{QUERY_ID}-1\">\n    <title>Query Keywords</title>\n"
    ));
    out.push_str("    <registration_rule>Expert Review</registration_rule>\n");
    for k in &query.keywords {
        out.push_str("    <record>\n");
        element(&mut out, "      ", "value", &k.keyword);
        element(&mut out, "      ", "description", &k.purpose);
        element(&mut out, "      ", "scope", k.scope.as_str());
        element(&mut out, "      ", "reference", &k.reference);
        for s in &k.supported_by {
            out.push_str("      <supported_by>\n");
            element(&mut out, "        ", "nid", &s.nid);
            element(&mut out, "        ", "reference", &s.reference);
            out.push_str("      </supported_by>\n");
        }
        out.push_str("    </record>\n");
    }
    out.push_str("  </registry>\n");
    out.push_str(&format!(
        "  <registry id=\"{QUERY_ID}-2\">\n    <title>Resolution Service Designators</title>\n"
    ));
    out.push_str("    <registration_rule>Expert Review</registration_rule>\n");
    for s in &query.services {
        out.push_str("    <record>\n");
        element(&mut out, "      ", "value", &s.name);
        element(&mut out, "      ", "description", &s.purpose);
        element(&mut out, "      ", "status", &s.status);
        element(&mut out, "      ", "reference", &s.reference);
        for a in &s.aliases {
            element(&mut out, "      ", "alias", a);
        }
        out.push_str("    </record>\n");
    }
    out.push_str("  </registry>\n</registry>\n");
    check_chars(&out, "the resolution sub-registries")
        .map_err(|e| SnapshotError(format!("{QUERY_XML_FILE}: {e}")))?;
    Ok(out.into_bytes())
}

/// Reads `urn-resolution-parameters.xml` back ([`render_query`]'s
/// layout); the entries are checked by the snapshot's validation.
///
/// # Errors
///
/// Malformed XML, or another document.
pub fn read_query(xml: &str) -> Result<QueryRegistry, XmlError> {
    let root = parse_xml(xml)?;
    if root.name != "registry" || root.attr("id") != QUERY_ID {
        return Err(XmlError(format!("not the '{QUERY_ID}' registry")));
    }
    let text = |e: &Element, name: &str| e.first(name).map(Element::text).unwrap_or_default();
    let mut query = QueryRegistry::default();
    for sub in root.all("registry") {
        let keywords = match sub.attr("id") {
            id if id == format!("{QUERY_ID}-1") => true,
            id if id == format!("{QUERY_ID}-2") => false,
            other => return Err(XmlError(format!("unknown sub-registry {other:?}"))),
        };
        for rec in sub.all("record") {
            if keywords {
                query.keywords.push(Keyword {
                    keyword: text(rec, "value"),
                    purpose: text(rec, "description"),
                    scope: {
                        let scope = text(rec, "scope");
                        Scope::parse(&scope)
                            .ok_or_else(|| XmlError(format!("scope {scope:?}: global or specific")))?
                    },
                    reference: text(rec, "reference"),
                    supported_by: rec
                        .all("supported_by")
                        .map(|s| SupportedBy {
                            nid: text(s, "nid"),
                            reference: text(s, "reference"),
                        })
                        .collect(),
                });
            } else {
                query.services.push(Service {
                    name: text(rec, "value"),
                    purpose: text(rec, "description"),
                    status: text(rec, "status"),
                    reference: text(rec, "reference"),
                    aliases: rec.all("alias").map(Element::text).collect(),
                });
            }
        }
    }
    Ok(query)
}

/// `urn-namespaces.xml` for `snapshot`.
///
/// # Errors
///
/// A value XML 1.0 cannot hold.
pub fn render(snapshot: &Snapshot) -> Result<Vec<u8>> {
    write_registry(&snapshot.registry, &snapshot.records)
        .map(String::into_bytes)
        .map_err(|e| SnapshotError(format!("{XML_FILE}: {e}")))
}

/// A minimal XML element tree: enough for the registry format.
#[derive(Clone, Debug, Default)]
pub struct Element {
    /// Local name.
    pub name: String,
    /// Attributes, unescaped.
    pub attrs: BTreeMap<String, String>,
    /// Child elements and text, in order.
    pub children: Vec<Node>,
}

/// A child of an [`Element`].
#[derive(Clone, Debug)]
pub enum Node {
    /// An element.
    Element(Element),
    /// Text, unescaped.
    Text(String),
}

/// Errors reading the registry XML.
#[derive(Debug)]
pub struct XmlError(pub String);

impl std::fmt::Display for XmlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "registry XML: {}", self.0)
    }
}

impl std::error::Error for XmlError {}

impl Element {
    /// Child elements called `name`.
    pub fn all<'e>(&'e self, name: &'e str) -> impl Iterator<Item = &'e Element> + 'e {
        self.children.iter().filter_map(move |c| match c {
            Node::Element(e) if e.name == name => Some(e),
            _ => None,
        })
    }

    /// The first child element called `name`.
    pub fn first<'e>(&'e self, name: &'e str) -> Option<&'e Element> {
        self.all(name).next()
    }

    /// All text inside, with child elements' text included.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for c in &self.children {
            match c {
                Node::Text(t) => out.push_str(t),
                Node::Element(e) => out.push_str(&e.text()),
            }
        }
        out
    }

    /// Text with `<xref type data/>` children written as `[type:data]`.
    fn text_with_xrefs(&self) -> String {
        let mut out = String::new();
        for c in &self.children {
            match c {
                Node::Text(t) => out.push_str(t),
                Node::Element(e) if e.name == "xref" => {
                    out.push_str(&format!("[{}:{}]", e.attr("type"), e.attr("data")));
                }
                Node::Element(e) => out.push_str(&e.text()),
            }
        }
        out
    }

    /// An attribute, or "".
    pub fn attr(&self, name: &str) -> &str {
        self.attrs.get(name).map_or("", String::as_str)
    }
}

/// The deepest element nesting [`parse_xml`] accepts. The registry format
/// nests five levels (`registry/registry/record/contact/xref`); a limit
/// keeps a hostile document from building a tree whose recursive walk
/// (and drop) would overflow the stack.
pub const MAX_XML_DEPTH: usize = 64;

/// The most attributes one element of a registry XML may have (IANA's
/// elements have at most three): a hostile one with tens of thousands
/// made the duplicate check quadratic.
pub const MAX_XML_ATTRIBUTES: usize = 64;

/// Parses an XML document into its root [`Element`].
///
/// # Errors
///
/// Malformed XML, or elements nested deeper than [`MAX_XML_DEPTH`].
pub fn parse_xml(text: &str) -> Result<Element, XmlError> {
    let mut reader = Reader::from_str(text);
    let mut stack: Vec<Element> = vec![Element::default()];
    loop {
        let event = reader
            .read_event()
            .map_err(|e| XmlError(format!("at byte {}: {e}", reader.buffer_position())))?;
        match event {
            Event::Start(ref start) | Event::Empty(ref start) => {
                let is_empty = matches!(event, Event::Empty(_));
                let mut el = Element {
                    name: String::from_utf8_lossy(start.local_name().as_ref()).into_owned(),
                    ..Element::default()
                };
                for (n, attr) in start.attributes().enumerate() {
                    // Each attribute is checked against those before it (no
                    // two alike): bounded, or 80,000 took 19 s.
                    if n == MAX_XML_ATTRIBUTES {
                        return Err(XmlError(format!(
                            "at byte {}: an element with more than MAX_XML_ATTRIBUTES = \
                             {MAX_XML_ATTRIBUTES} attributes",
                            reader.buffer_position()
                        )));
                    }
                    let attr = attr.map_err(|e| XmlError(e.to_string()))?;
                    let value = attr.unescape_value().map_err(|e| XmlError(e.to_string()))?;
                    el.attrs.insert(
                        String::from_utf8_lossy(attr.key.local_name().as_ref()).into_owned(),
                        value.into_owned(),
                    );
                }
                // The stack holds the document node below the open elements.
                if stack.len() > MAX_XML_DEPTH {
                    return Err(XmlError(format!(
                        "at byte {}: elements nested deeper than MAX_XML_DEPTH = {MAX_XML_DEPTH}",
                        reader.buffer_position()
                    )));
                }
                if is_empty {
                    push(&mut stack, Node::Element(el));
                } else {
                    stack.push(el);
                }
            }
            Event::End(_) => {
                let el = stack
                    .pop()
                    .filter(|_| !stack.is_empty())
                    .ok_or_else(|| XmlError("unbalanced end tag".into()))?;
                push(&mut stack, Node::Element(el));
            }
            Event::Text(t) => {
                let s = t.unescape().map_err(|e| XmlError(e.to_string()))?;
                push(&mut stack, Node::Text(s.into_owned()));
            }
            Event::CData(t) => {
                push(
                    &mut stack,
                    Node::Text(String::from_utf8_lossy(&t.into_inner()).into_owned()),
                );
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if stack.len() != 1 {
        return Err(XmlError("unexpected end of document".into()));
    }
    let doc = stack.pop().unwrap_or_default();
    doc.children
        .into_iter()
        .find_map(|c| match c {
            Node::Element(e) => Some(e),
            Node::Text(_) => None,
        })
        .ok_or_else(|| XmlError("no root element".into()))
}

fn push(stack: &mut [Element], node: Node) {
    if let Some(top) = stack.last_mut() {
        // Merge adjacent text (quick-xml splits text at entity references).
        if let (Node::Text(new), Some(Node::Text(old))) = (&node, top.children.last_mut()) {
            old.push_str(new);
            return;
        }
        top.children.push(node);
    }
}

/// `x` with a person id of its own among `people` (which it joins): two
/// different people (another name or address) never share one, so each
/// namespace's contact keeps its own address; the same person keeps one id.
fn own_person_id(people: &mut BTreeMap<String, Person>, x: &Xref) -> Xref {
    let Some(person) = &x.person else {
        return x.clone();
    };
    let mut id = x.data.clone();
    let mut n = 1;
    loop {
        match people.get(&id) {
            None => {
                people.insert(id.clone(), person.clone());
                break;
            }
            Some(held) if held.name == person.name && held.uri == person.uri => break,
            Some(_) => {
                n += 1;
                id = format!("{}_{n}", x.data);
            }
        }
    }
    Xref {
        data: id,
        ..x.clone()
    }
}

fn xref(el: &Element, people: &BTreeMap<String, Person>) -> Xref {
    let text = el.text();
    Xref {
        kind: el.attr("type").to_string(),
        data: el.attr("data").to_string(),
        text: (!text.is_empty()).then_some(text),
        person: (el.attr("type") == "person")
            .then(|| people.get(el.attr("data")).cloned())
            .flatten(),
    }
}

fn opt_attr(el: &Element, name: &str) -> Option<String> {
    el.attrs.get(name).cloned()
}

/// Reads the registry XML into registry-wide facts and one record per NID.
///
/// # Errors
///
/// Malformed XML, or a document that is not the URN namespaces registry.
pub fn read_registry(xml: &str) -> Result<(RegistryFile, Vec<RecordFile>), XmlError> {
    let root = parse_xml(xml)?;
    if root.name != "registry" || root.attr("id") != "urn-namespaces" {
        return Err(XmlError("not the IANA 'urn-namespaces' registry".into()));
    }
    let people: BTreeMap<String, Person> = root
        .first("people")
        .map(|p| {
            p.all("person")
                .map(|person| {
                    let field = |n: &str| person.first(n).map(Element::text);
                    let entry = Person {
                        name: field("name").unwrap_or_default(),
                        uri: field("uri"),
                        updated: field("updated"),
                    };
                    (person.attr("id").to_string(), entry)
                })
                .collect()
        })
        .unwrap_or_default();
    let mut subregistries = Vec::new();
    let mut records = Vec::new();
    for sub in root.all("registry") {
        let kind = match sub.attr("id") {
            "urn-namespaces-1" => Kind::Formal,
            "urn-namespaces-2" => Kind::Informal,
            other => return Err(XmlError(format!("unknown sub-registry {other:?}"))),
        };
        subregistries.push(SubregistryFile {
            id: sub.attr("id").to_string(),
            kind,
            title: sub.first("title").map(Element::text).unwrap_or_default(),
            references: sub.all("xref").map(|x| xref(x, &people)).collect(),
            registration_rule: sub
                .first("registration_rule")
                .map(Element::text_with_xrefs)
                .unwrap_or_default(),
            expert: sub.first("expert").map(Element::text).unwrap_or_default(),
        });
        for rec in sub.all("record") {
            let nid = rec.first("name").map(Element::text).unwrap_or_default();
            if nid.is_empty() {
                return Err(XmlError("a record without <name>".into()));
            }
            // One name per record: a second would be dropped unseen.
            if rec.all("name").nth(1).is_some() {
                return Err(XmlError(format!(
                    "the record of '{nid}' has more than one <name>"
                )));
            }
            records.push(RecordFile {
                nid,
                kind,
                date: opt_attr(rec, "date"),
                updated: opt_attr(rec, "updated"),
                template: rec
                    .first("template")
                    .and_then(|t| t.first("xref"))
                    .map(|x| xref(x, &people)),
                references: rec.all("xref").map(|x| xref(x, &people)).collect(),
                contacts: rec
                    .all("contact")
                    .flat_map(|c| c.all("xref").map(|x| xref(x, &people)).collect::<Vec<_>>())
                    .collect(),
                registration: None,
                referenced: Vec::new(),
                status: None,
                filed: Vec::new(),
                rules: None,
            });
        }
    }
    let registry = RegistryFile {
        id: root.attr("id").to_string(),
        title: root.first("title").map(Element::text).unwrap_or_default(),
        category: root.first("category").map(Element::text).unwrap_or_default(),
        updated: root.first("updated").map(Element::text).unwrap_or_default(),
        notes: root.all("note").map(|n| n.text().trim().to_string()).collect(),
        subregistries,
    };
    Ok((registry, records))
}

/// Returns true if and only if `c` may appear in an XML 1.0 document,
/// literally or as a character reference (XML 1.0 section 2.2, `Char`).
pub fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Escapes text for XML element content. A carriage return is written as
/// `&#xD;`, which a parser keeps, where a literal one would be turned into
/// a line feed (XML 1.0 section 2.11).
fn xml_escape(text: &str) -> String {
    escape(text, false)
}

/// Escapes an attribute value: as [`xml_escape`], and tabs and line feeds
/// as character references too, which attribute-value normalization
/// would otherwise turn into spaces (XML 1.0 section 3.3.3).
fn xml_attr(text: &str) -> String {
    escape(text, true)
}

fn escape(text: &str, attribute: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\r' => out.push_str("&#xD;"),
            '\t' if attribute => out.push_str("&#x9;"),
            '\n' if attribute => out.push_str("&#xA;"),
            c => out.push(c),
        }
    }
    out
}

/// Refuses `xml` (a part of the document, about `what`) if it holds a
/// character that XML 1.0 cannot hold in any form: a control character
/// other than tab, line feed and carriage return, U+FFFE or U+FFFF.
fn check_chars(xml: &str, what: &str) -> Result<(), XmlError> {
    match xml.chars().find(|c| !is_xml_char(*c)) {
        Some(c) => Err(XmlError(format!(
            "{what} holds U+{:04X}, which XML 1.0 cannot hold (section 2.2, Char): \
             remove it before exporting to XML",
            u32::from(c)
        ))),
        None => Ok(()),
    }
}

fn write_xref(out: &mut String, x: &Xref) {
    out.push_str(&format!(
        "<xref type=\"{}\" data=\"{}\"",
        xml_attr(&x.kind),
        xml_attr(&x.data)
    ));
    match &x.text {
        Some(t) => out.push_str(&format!(">{}</xref>", xml_escape(t))),
        None => out.push_str("/>"),
    }
}

/// Text with `[type:data]` written back as `<xref type data/>` (the
/// inverse of how [`read_registry`] reads a `<registration_rule>`).
fn write_text_with_xrefs(out: &mut String, text: &str) {
    let mut rest = text;
    while let Some(start) = rest.find('[') {
        let Some(len) = rest[start..].find(']') else { break };
        let inner = &rest[start + 1..start + len];
        match inner.split_once(':') {
            Some((kind, data))
                if !kind.is_empty() && kind.bytes().all(|b| b.is_ascii_lowercase() || b == b'-') =>
            {
                out.push_str(&xml_escape(&rest[..start]));
                write_xref(
                    out,
                    &Xref {
                        kind: kind.to_string(),
                        data: data.to_string(),
                        text: None,
                        person: None,
                    },
                );
            }
            _ => out.push_str(&xml_escape(&rest[..=start + len])),
        }
        rest = &rest[start + len + 1..];
    }
    out.push_str(&xml_escape(rest));
}

/// Writes the registry in the IANA XML format (`urn-namespaces.xml`): the
/// same elements and structure, so that [`read_registry`] reads back the
/// same registry facts and records. Registration texts and urnreg's own
/// rules have no place in that format and are left out.
///
/// # Errors
///
/// A value holding a character XML 1.0 cannot hold (see [`is_xml_char`]),
/// naming the record or part of the registry it is in: the document is
/// always well-formed, or not written.
pub fn write_registry(registry: &RegistryFile, records: &[RecordFile]) -> Result<String, XmlError> {
    let mut out = String::from("<?xml version='1.0' encoding='UTF-8'?>\n");
    out.push_str(&format!(
        "<registry xmlns=\"http://www.iana.org/assignments\" id=\"{}\">\n",
        xml_attr(&registry.id)
    ));
    out.push_str(&format!("  <title>{}</title>\n", xml_escape(&registry.title)));
    out.push_str(&format!(
        "  <category>{}</category>\n",
        xml_escape(&registry.category)
    ));
    out.push_str(&format!(
        "  <updated>{}</updated>\n",
        xml_escape(&registry.updated)
    ));
    for note in &registry.notes {
        out.push_str(&format!("  <note>{}</note>\n", xml_escape(note)));
    }
    check_chars(&out, "the registry's title, category, updated date or notes")?;
    let mut people: BTreeMap<String, Person> = BTreeMap::new();
    for sub in &registry.subregistries {
        let start = out.len();
        out.push_str(&format!("  <registry id=\"{}\">\n", xml_attr(&sub.id)));
        out.push_str(&format!("    <title>{}</title>\n", xml_escape(&sub.title)));
        for x in &sub.references {
            out.push_str("    ");
            write_xref(&mut out, x);
            out.push('\n');
        }
        out.push_str("    <registration_rule>");
        write_text_with_xrefs(&mut out, &sub.registration_rule);
        out.push_str("</registration_rule>\n");
        out.push_str(&format!("    <expert>{}</expert>\n", xml_escape(&sub.expert)));
        check_chars(&out[start..], &format!("the sub-registry '{}'", sub.id))?;
        // Informal NIDs in the order IANA assigned them (urn-2 before
        // urn-10), as IANA's own file lists them; formal ones by name.
        let mut listed: Vec<_> = records.iter().filter(|r| r.kind == sub.kind).collect();
        listed.sort_by_cached_key(|r| {
            let number = r.nid.get(4..).and_then(|n| n.parse::<u64>().ok());
            (r.kind == Kind::Informal, number, r.nid.to_ascii_lowercase())
        });
        for record in listed {
            let start = out.len();
            out.push_str("    <record");
            if let Some(d) = &record.date {
                out.push_str(&format!(" date=\"{}\"", xml_attr(d)));
            }
            if let Some(u) = &record.updated {
                out.push_str(&format!(" updated=\"{}\"", xml_attr(u)));
            }
            out.push_str(">\n");
            out.push_str(&format!("      <name>{}</name>\n", xml_escape(&record.nid)));
            if let Some(t) = &record.template {
                out.push_str("      <template>");
                write_xref(&mut out, &own_person_id(&mut people, t));
                out.push_str("</template>\n");
            }
            for x in &record.references {
                out.push_str("      ");
                write_xref(&mut out, &own_person_id(&mut people, x));
                out.push('\n');
            }
            for x in &record.contacts {
                out.push_str("      <contact>");
                write_xref(&mut out, &own_person_id(&mut people, x));
                out.push_str("</contact>\n");
            }
            // The registry's schema gives every informal record a contact.
            if record.kind == Kind::Informal && record.contacts.is_empty() {
                out.push_str("      <contact/>\n");
            }
            out.push_str("    </record>\n");
            check_chars(&out[start..], &format!("the record of '{}'", record.nid))?;
        }
        out.push_str("  </registry>\n");
    }
    if !people.is_empty() {
        out.push_str("  <people>\n");
        for (id, p) in &people {
            let start = out.len();
            out.push_str(&format!("    <person id=\"{}\">\n", xml_attr(id)));
            out.push_str(&format!("      <name>{}</name>\n", xml_escape(&p.name)));
            if let Some(u) = &p.uri {
                out.push_str(&format!("      <uri>{}</uri>\n", xml_escape(u)));
            }
            if let Some(u) = &p.updated {
                out.push_str(&format!("      <updated>{}</updated>\n", xml_escape(u)));
            }
            out.push_str("    </person>\n");
            check_chars(&out[start..], &format!("the person '{id}'"))?;
        }
        out.push_str("  </people>\n");
    }
    out.push_str("</registry>\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::data::{EMBEDDED, REGISTRY_FILE};

    fn shipped_meta() -> RegistryFile {
        let meta = EMBEDDED.iter().find(|(n, _)| *n == REGISTRY_FILE).unwrap().1;
        toml::from_str(meta).unwrap()
    }

    fn with_reference(text: &str) -> RecordFile {
        RecordFile {
            references: vec![Xref {
                kind: "uri".into(),
                data: "https://x.example/\ta\nb\rc".into(),
                text: Some(text.into()),
                person: None,
            }],
            ..RecordFile::bare("abc", Kind::Formal)
        }
    }

    #[test]
    fn what_xml_1_0_cannot_hold_is_refused_naming_the_record_section_2_2() {
        for c in ['\u{1}', '\u{1b}', '\u{0}', '\u{ffff}', '\u{fffe}'] {
            let record = with_reference(&format!("a{c}b"));
            let e = write_registry(&shipped_meta(), &[record])
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("'abc'") && e.contains(&format!("U+{:04X}", u32::from(c))),
                "{e}"
            );
        }
    }

    #[test]
    fn tabs_and_line_ends_read_back_as_written_sections_2_11_and_3_3_3() {
        let record = with_reference("carriage\rreturn\tand\nline feed");
        let xml = write_registry(&shipped_meta(), std::slice::from_ref(&record)).unwrap();
        let (_, back) = read_registry(&xml).unwrap();
        assert_eq!(back[0].references, record.references);
    }

    /// Two people who would get one person id (the same name, another
    /// address) keep their own addresses: the second gets an id of its
    /// own; one person met twice keeps one id.
    #[test]
    fn different_people_never_share_a_person_id() {
        let contact = |nid: &str, email: &str| RecordFile {
            contacts: vec![Xref {
                kind: "person".into(),
                data: "jane".into(),
                text: None,
                person: Some(Person {
                    name: "jane".into(),
                    uri: Some(format!("mailto:{email}")),
                    updated: None,
                }),
            }],
            ..RecordFile::bare(nid, Kind::Informal)
        };
        let records = [
            contact("urn-10", "jane&a.example"),
            contact("urn-11", "jane&b.example"),
            contact("urn-12", "jane&a.example"),
        ];
        let xml = write_registry(&shipped_meta(), &records).unwrap();
        let (_, back) = read_registry(&xml).unwrap();
        let address = |r: &RecordFile| r.contacts[0].person.as_ref().unwrap().uri.clone().unwrap();
        let ids: Vec<&str> = back.iter().map(|r| r.contacts[0].data.as_str()).collect();
        assert_eq!(ids, ["jane", "jane_2", "jane"]);
        for (written, read) in records.iter().zip(&back) {
            assert_eq!(address(written), address(read), "{}", written.nid);
        }
    }

    #[test]
    fn a_record_with_two_names_is_refused() {
        let record = with_reference("x");
        let xml = write_registry(&shipped_meta(), std::slice::from_ref(&record)).unwrap();
        let twice = xml.replacen("<name>abc</name>", "<name>abc</name><name>zzz</name>", 1);
        assert_ne!(twice, xml);
        let e = read_registry(&twice).unwrap_err().to_string();
        assert!(e.contains("more than one <name>"), "{e}");
    }

    #[test]
    fn nesting_is_limited_to_max_xml_depth() {
        let nested = |depth: usize| format!("{}{}", "<a>".repeat(depth), "</a>".repeat(depth));
        assert!(parse_xml(&nested(MAX_XML_DEPTH)).is_ok());
        let e = parse_xml(&nested(MAX_XML_DEPTH + 1)).unwrap_err().to_string();
        assert!(e.contains("MAX_XML_DEPTH = 64"), "{e}");
        let e = parse_xml(&nested(200_000)).unwrap_err().to_string();
        assert!(e.contains("MAX_XML_DEPTH"), "{e}");
    }
}
