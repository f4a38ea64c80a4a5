/** XML text shared by the DOCX writer: the API module's escaping (one rule for every markup we write). */
export { escapeXml, XML_DECLARATION } from '../../api/xmlText.js';
