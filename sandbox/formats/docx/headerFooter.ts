/** word/header1.xml (the watermark: a header line and Word's diagonal text watermark) and word/footer1.xml (title, page numbers). */
import { escapeXml, XML_DECLARATION } from '../xml.js';
import { STYLE } from './styles.js';
import { NS, paragraph, run } from './wordXml.js';

/** Word's preset shape type for WordArt text on a path (VML), as Word writes it for watermarks. */
const TEXT_PATH_SHAPE_TYPE =
  '<v:shapetype id="_x0000_t136" coordsize="21600,21600" o:spt="136" adj="10800" path="m@7,l@8,m@5,21600l@6,21600e">' +
  '<v:formulas><v:f eqn="sum #0 0 10800"/><v:f eqn="prod #0 2 1"/><v:f eqn="sum 21600 0 @1"/><v:f eqn="sum 0 0 @2"/>' +
  '<v:f eqn="sum 21600 0 @3"/><v:f eqn="if @0 @3 0"/><v:f eqn="if @0 21600 @1"/><v:f eqn="if @0 0 @2"/>' +
  '<v:f eqn="if @0 @4 21600"/><v:f eqn="mid @5 @6"/><v:f eqn="mid @8 @5"/><v:f eqn="mid @7 @8"/>' +
  '<v:f eqn="mid @6 @7"/><v:f eqn="sum @6 0 @5"/></v:formulas>' +
  '<v:path textpathok="t" o:connecttype="custom" o:connectlocs="@9,0;@10,10800;@11,21600;@12,10800" o:connectangles="270,180,90,0"/>' +
  '<v:textpath on="t" fitshape="t"/><v:handles><v:h position="#0,bottomRight" xrange="6629,14971"/></v:handles>' +
  '<o:lock v:ext="edit" text="t" shapetype="t"/></v:shapetype>';

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The diagonal watermark shape, centred on the page margins, behind the text. */
function diagonalWatermarkRun(watermark: string): string {
  // Width follows the text length so short and long watermarks both keep their proportions.
  const widthPt = Math.min(480, Math.max(200, oneLine(watermark).length * 11));
  const heightPt = Math.round(widthPt / 6);
  const style =
    `position:absolute;margin-left:0;margin-top:0;width:${widthPt}pt;height:${heightPt}pt;rotation:315;z-index:-251657216;` +
    'mso-position-horizontal:center;mso-position-horizontal-relative:margin;mso-position-vertical:center;mso-position-vertical-relative:margin';
  return (
    '<w:r><w:rPr><w:noProof/></w:rPr><w:pict>' +
    TEXT_PATH_SHAPE_TYPE +
    `<v:shape id="PowerPlusWaterMarkObject1" o:spid="_x0000_s2049" type="#_x0000_t136" style="${style}" o:allowincell="f" fillcolor="silver" stroked="f">` +
    '<v:fill opacity=".5"/>' +
    `<v:textpath style="font-family:&quot;Calibri&quot;;font-size:1pt" string="${escapeXml(oneLine(watermark))}"/>` +
    '<w10:wrap anchorx="margin" anchory="margin"/></v:shape></w:pict></w:r>'
  );
}

export function headerXml(watermark: string): string {
  const headerLine = paragraph(STYLE.header, run(oneLine(watermark), '<w:b/>') + diagonalWatermarkRun(watermark), '<w:jc w:val="center"/>');
  return `${XML_DECLARATION}<w:hdr xmlns:w="${NS.w}" xmlns:r="${NS.r}" xmlns:v="${NS.v}" xmlns:o="${NS.o}" xmlns:w10="${NS.w10}">${headerLine}</w:hdr>`;
}

function field(instruction: string, placeholder: string): string {
  return `<w:fldSimple w:instr=" ${instruction} ">${run(placeholder)}</w:fldSimple>`;
}

const FOOTER_TITLE_MAX_CHARS = 70;

export function footerXml(title: string): string {
  const line = oneLine(title);
  const shortTitle = line.length > FOOTER_TITLE_MAX_CHARS ? `${line.slice(0, FOOTER_TITLE_MAX_CHARS - 1).trimEnd()}\u2026` : line;
  const content = run(`${shortTitle}\t\tPage `) + field('PAGE', '1') + run(' of ') + field('NUMPAGES', '1');
  return `${XML_DECLARATION}<w:ftr xmlns:w="${NS.w}" xmlns:r="${NS.r}">${paragraph(STYLE.footer, content)}</w:ftr>`;
}
